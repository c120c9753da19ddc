#!/usr/bin/python3
"""The guide's and the README's commands run as shown.

Every fenced block whose info string is `sh` is a list of commands (a line
ending in a backslash goes on): each runs with bash in a scratch folder of
its page, where `pescope` and `build/pescope` are $PESCOPE_BIN and `assets`
is the source tree's, within
--timeout seconds, and must exit 0, or the status its `# exit N` comment
says. A command that starts the TUI (pescope without a command, or
`pescope lesson` without --list or --placeholders) runs in a tmux window of
100x30: it must draw a frame, and q must end it with status 0. Other blocks:
  ```text file=NAME    written to NAME in the page's folder before any command
  ```python            run with python3 there
  ```text output       the previous command's standard output, exactly
Commands that build, install or fetch (make, meson, ninja, apt, apt-get,
sudo, dpkg, git) and programs that are not installed (asciinema) are listed
as skipped, never run. Usage: check_guide.py [FILE.md...] (by default the
README and every page of docs/, so a new page is checked without being
listed); prints one line per command and "N passed, N failed, N skipped".
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import glob
import tempfile
import time

BIN = os.environ.get("PESCOPE_BIN")
SRC = os.environ.get("PESCOPE_SRCDIR", ".")
TIMEOUT = 60
NOT_RUN = {"make", "meson", "ninja", "apt", "apt-get", "sudo", "dpkg", "git"}
# the commands that are not the TUI, from the usage lines of --help (lesson
# is the TUI too); these are the fallback
COMMANDS = {"snapshot", "dump", "bench", "completion", "manpage", "model"}
ONE_SHOT = {"--help", "-h", "--version", "-V", "--list-presets", "--list",
            "--placeholders"}

passed = failed = skipped = 0


def say(status, where, cmd, why=""):
    global passed, failed, skipped
    if status == "ok":
        passed += 1
    elif status == "FAIL":
        failed += 1
    else:
        skipped += 1
    line = "%-4s %s: %s" % (status, where, cmd)
    print(line + (" (%s)" % why if why else ""), flush=True)


def blocks(path):
    """Yield (line number, info string, lines) for each fenced block."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(.*)$", lines[i])
        if not m:
            i += 1
            continue
        indent, info, start, body = m.group(1), m.group(2).strip(), i + 1, []
        i += 1
        while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent)
                        else lines[i])
            i += 1
        i += 1
        yield start, info, body


def commands(body):
    """The commands of an sh block, continuation lines joined."""
    out, cur = [], ""
    for line in body:
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
            continue
        cur += line
        if cur.strip() and not cur.strip().startswith("#"):
            out.append(cur.strip())
        cur = ""
    return out


def words(cmd):
    try:
        return shlex.split(cmd, comments=True)
    except ValueError:
        return cmd.split()


def is_tui(w):
    """pescope without a command, or lesson without a one-shot option
    (after any VAR=value words)."""
    while w and re.match(r"^[A-Z_][A-Z0-9_]*=", w[0]):
        w = w[1:]
    if not w or w[0] != "pescope" or "|" in w or any(x in ONE_SHOT for x in w):
        return False
    return not any(x in COMMANDS for x in w[1:])


def installed(word, env):
    """A builtin, keyword or program bash finds."""
    return subprocess.run(["bash", "-c", "type -t -- " + shlex.quote(word)],
                          env=env, capture_output=True).returncode == 0


def stuck(tmux, name):
    """What a TUI that did not end is doing: each process under the pane,
    its state, where the kernel holds it and, with gdb, its stack."""
    pane = subprocess.run(tmux + ["list-panes", "-t", name, "-F",
                                  "#{pane_pid}"],
                          capture_output=True, text=True).stdout.split()
    out, todo = [], pane[:1]
    while todo:
        pid = todo.pop()
        try:
            with open("/proc/%s/stat" % pid) as f:
                stat = f.read().rsplit(")", 1)[1].split()
            with open("/proc/%s/wchan" % pid) as f:
                wchan = f.read()
            with open("/proc/%s/cmdline" % pid) as f:
                argv = f.read().replace("\0", " ").strip()
            with open("/proc/%s/task/%s/children" % (pid, pid)) as f:
                todo += f.read().split()
        except OSError:
            continue
        out.append("pid %s state %s wchan %s: %s" % (pid, stat[0], wchan,
                                                    argv[:80]))
        if os.path.basename(argv.split(" ")[0]) == "pescope" and \
                shutil.which("gdb"):
            bt = subprocess.run(["gdb", "-p", pid, "-batch", "-ex", "bt"],
                                capture_output=True, text=True).stdout
            out.append(" / ".join(l for l in bt.split("\n")
                                  if l.startswith("#"))[:1500])
    return "\n  " + "\n  ".join(out) if out else ""


def run_tui(cmd, cwd, env, tmux, where):
    name = "g%d" % int(time.time() * 1000 % 1e9)
    done = os.path.join(cwd, ".tui-exit")
    if os.path.exists(done):
        os.remove(done)
    # the status is written beside and renamed into place: a file that
    # exists is whole (seen between the shell's creating it and its write,
    # the status would be empty, and a TUI that ended on q would fail)
    script = "%s\necho $? > %s.new && mv %s.new %s" % (
        cmd, shlex.quote(done), shlex.quote(done), shlex.quote(done))
    for attempt in range(3):  # a busy server may fail a new session once
        p = subprocess.run(tmux + ["new-session", "-d", "-s", name, "-x",
                                   "100", "-y", "30", "-c", cwd, "bash",
                                   "-c", script],
                           env=env, capture_output=True, text=True)
        if p.returncode == 0:
            break
        time.sleep(1)
    else:
        say("FAIL", where, cmd, "tmux new-session: " + p.stderr.strip())
        return
    screen = ""
    for _ in range(60):  # a frame within 15 s
        time.sleep(0.25)
        screen = subprocess.run(tmux + ["capture-pane", "-p", "-t", name],
                                capture_output=True, text=True).stdout
        if os.path.exists(done) or sum(1 for l in screen.split("\n")
                                       if l.strip()) >= 5:
            break
    # q, again after 3 s if a busy machine swallowed the first one into
    # the terminal's set-up (curses flushes pending input when it starts)
    for _ in range(3):
        if os.path.exists(done):
            break
        time.sleep(0.5)
        subprocess.run(tmux + ["send-keys", "-t", name, "q"])
        for _ in range(12):
            if os.path.exists(done):
                break
            time.sleep(0.25)
    status = open(done).read().strip() if os.path.exists(done) else None
    why = "" if status is not None else stuck(tmux, name)
    subprocess.run(tmux + ["kill-session", "-t", name],
                   capture_output=True)
    if status == "0":
        say("ok", where, cmd, "TUI: drew, q ended it")
    else:
        tail = " | ".join(l for l in screen.split("\n") if l.strip())[-300:]
        say("FAIL", where, cmd, "TUI exit %s; screen: %s%s" % (status, tail,
                                                               why))


def check_text(path, rel):
    """No issue numbers; every relative link names a file that exists."""
    text = open(path, encoding="utf-8").read()
    m = re.search(r"\bissues? #?\d+", text, re.I)
    if m:
        say("FAIL", rel, "an issue number", m.group(0))
    else:
        say("ok", rel, "no issue numbers")
    bad = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        f = os.path.join(os.path.dirname(path), target.split("#")[0])
        if not os.path.exists(f):
            bad.append(target)
    if bad:
        say("FAIL", rel, "links to files that do not exist", " ".join(bad))
    else:
        say("ok", rel, "every relative link names a file")


def check(path, tmux):
    rel = os.path.relpath(path, SRC)
    check_text(path, rel)
    cwd = tempfile.mkdtemp(prefix="pescope-guide-")
    bindir = os.path.join(cwd, ".bin")
    os.makedirs(bindir)
    os.makedirs(os.path.join(cwd, "build"))
    os.symlink(BIN, os.path.join(bindir, "pescope"))
    os.symlink(BIN, os.path.join(cwd, "build", "pescope"))
    # the shipped files, as a command run in the source tree sees them
    os.symlink(os.path.join(os.path.abspath(SRC), "assets"),
               os.path.join(cwd, "assets"))
    # the lessons' kept places in the check's own folder: a lesson the
    # guide leaves at scene 9 would start the next test's lesson there
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"],
               PESCOPE_SNAPSHOT_DIR=cwd, TERM="xterm-256color",
               XDG_STATE_HOME=os.path.join(cwd, ".state"))
    env.pop("NO_COLOR", None)
    last_out = None
    # the page's files first, so that a command may come before its file
    for line, info, body in blocks(path):
        for a in info.split()[1:]:
            if a.startswith("file="):
                with open(os.path.join(cwd, a[5:]), "w") as f:
                    f.write("\n".join(body) + "\n")
    try:
        for line, info, body in blocks(path):
            where = "%s:%d" % (rel, line)
            kind = info.split()[0] if info else ""
            attrs = info.split()[1:]
            if any(a.startswith("file=") for a in attrs):
                continue
            if kind == "text" and "output" in attrs:
                want = "\n".join(body).rstrip("\n")
                got = (last_out or "").rstrip("\n")
                if got == want:
                    say("ok", where, "output as shown")
                else:
                    say("FAIL", where, "output differs",
                        "got:\n" + got[:2000])
                continue
            if kind == "python":
                p = subprocess.run(["/usr/bin/python3", "-c", "\n".join(body)],
                                   cwd=cwd, env=env, capture_output=True,
                                   text=True, timeout=TIMEOUT)
                if p.returncode == 0:
                    say("ok", where, "python block")
                else:
                    say("FAIL", where, "python block", p.stderr[-500:])
                continue
            if kind != "sh":
                continue
            for cmd in commands(body):
                w = words(cmd)
                m = re.search(r"#\s*exit (\d+)\s*$", cmd)
                want = int(m.group(1)) if m else 0
                first = w[0].lstrip("(") if w else ""
                if first and (first in NOT_RUN or "=" not in first
                              and not installed(first, env)):
                    say("skip", where, cmd, "builds, installs or is not installed: not run here")
                    continue
                if is_tui(w):
                    if tmux is None:
                        say("skip", where, cmd, "TUI: tmux is not installed")
                    else:
                        run_tui(cmd, cwd, env, tmux, where)
                    continue
                try:
                    p = subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env,
                                       capture_output=True, text=True,
                                       timeout=TIMEOUT, stdin=subprocess.DEVNULL)
                except subprocess.TimeoutExpired:
                    say("FAIL", where, cmd, "over %d s" % TIMEOUT)
                    continue
                last_out = p.stdout
                if p.returncode == want:
                    say("ok", where, cmd)
                else:
                    say("FAIL", where, cmd, "exit %d, want %d: %s" %
                        (p.returncode, want, (p.stderr or p.stdout)[-400:]))
    finally:
        shutil.rmtree(cwd, ignore_errors=True)


def main():
    global TIMEOUT
    args = sys.argv[1:]
    if args and args[0].startswith("--timeout="):
        TIMEOUT = int(args.pop(0).split("=")[1])
    if not BIN:
        print("PESCOPE_BIN is not set")
        return 2
    usage = subprocess.run([BIN, "--help"], capture_output=True,
                           text=True).stdout
    found = set(re.findall(r"^(?:Usage:|  or:)\s+pescope ([a-z]+)", usage,
                           re.M)) - {"lesson"}
    if found:
        COMMANDS.clear()
        COMMANDS.update(found)
    if not args:
        args = ["README.md"] + sorted(
            os.path.relpath(p, SRC)
            for p in glob.glob(os.path.join(SRC, "docs", "*.md")))
    tmux = None
    if shutil.which("tmux"):
        sock = "pescope-guide-%d" % os.getpid()
        tmux = ["tmux", "-L", sock, "-f", "/dev/null"]
        # a session that lives as long as the check, so that the server
        # does not exit between two commands' sessions (a new session sent
        # while it exits fails: "server exited unexpectedly")
        subprocess.run(tmux + ["new-session", "-d", "-s", "keep", "cat"],
                       check=True)
    try:
        for path in args:
            check(os.path.join(SRC, path) if not os.path.isabs(path) else path,
                  tmux)
    finally:
        if tmux:
            subprocess.run(tmux + ["kill-server"], capture_output=True)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
