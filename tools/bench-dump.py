#!/usr/bin/python3
"""pescope dump against the ten lines of PyTorch it replaces, side by side
in one run, on the same number of threads, printed as the Markdown
docs/dump.md keeps.

Two tables:
  1. the 32768 x 4096 float32 sinusoidal table, against the PyTorch
     tutorial's PositionalEncoding(d_model, max_len) module;
  2. the RoPE cos table of a Llama-style head (head_dim 128, 131072
     positions, base 500000), against the Hugging Face computation
     (inv_freq outer positions, cat(freqs, freqs), cos).
For each thread count T (1, and the online CPUs), PyTorch runs on T
threads (torch.set_num_threads(T)) and pescope with --threads T; three
measures, the median of --runs runs taken in turns:
  end to end:   `pescope dump ... --format npy -o /dev/shm/...` (the whole
                process, started from here) against PyTorch building the
                table + np.save to /dev/shm (in this process: no
                interpreter start, no import); each side writes a new file
                (the previous run's is removed first, untimed: replacing a
                file would add the kernel's freeing of the old one's pages
                to either side, about 9 ms for 64 MiB here);
  computation:  `pescope dump ... --format npy -o /dev/null` against
                PyTorch building the table alone;
  peak memory:  /usr/bin/time -v's maximum resident set of each dump (a run
                of its own, untimed), and of a python3 process that imports
                torch and builds the table;
  CPU time:     user + system of each side (the dump process's own rusage;
                PyTorch's time.process_time, all its threads), which a
                loaded machine's waiting does not add to.
pescope's own scaling (its computation at 1 thread against T) is a line of
its own. Each table's largest error against a float64 numpy reference is
printed too. The load average is printed before and after: the machine
may be shared, and wall times then include waiting for a core (the CPU
times do not).

Where PyTorch is not installed (Debian's python3-torch), the same
computations transcribed to numpy stand in for it, and every line says
"numpy" instead of "PyTorch"; numpy has no thread count of its own here
(its sin and cos run on one thread).

pescope is built with --buildtype=release in build-release/. Not part of
`make test`. Usage: tools/bench-dump.py [--runs N] [--threads T ...]
[--case sinusoidal|rope ...]"""
import argparse
import datetime
import math
import os
import platform
import re
import statistics
import subprocess
import sys
import time

import numpy as np

try:
    import torch
except ImportError:
    torch = None

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, "build-release")
BIN = os.path.join(BUILD, "pescope")
SHM = "/dev/shm"
OTHER = "PyTorch" if torch is not None else "numpy"


if torch is not None:
    class PositionalEncoding(torch.nn.Module):
        """The PyTorch tutorial's module (pytorch.org/tutorials, "Language
        Modeling with nn.Transformer and torchtext"), dropout left out."""

        def __init__(self, d_model, max_len=5000):
            super().__init__()
            position = torch.arange(max_len).unsqueeze(1)
            div_term = torch.exp(torch.arange(0, d_model, 2) *
                                 (-math.log(10000.0) / d_model))
            pe = torch.zeros(max_len, 1, d_model)
            pe[:, 0, 0::2] = torch.sin(position * div_term)
            pe[:, 0, 1::2] = torch.cos(position * div_term)
            self.register_buffer("pe", pe)


def torch_sinusoidal(n, d):
    """The tutorial's table, or its numpy transcription (float32 as the
    module computes it)."""
    if torch is not None:
        return PositionalEncoding(d, n).pe.squeeze(1).numpy()
    position = np.arange(n, dtype=np.float32)[:, None]
    div_term = np.exp(np.arange(0, d, 2, dtype=np.float32) *
                      np.float32(-math.log(10000.0) / d))
    pe = np.zeros((n, d), dtype=np.float32)
    pe[:, 0::2] = np.sin(position * div_term)
    pe[:, 1::2] = np.cos(position * div_term)
    return pe


def torch_rope_cos(n, dim, base):
    """HF's _compute_default_rope_parameters and LlamaRotaryEmbedding, or
    their numpy transcription."""
    if torch is not None:
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2,
                                                dtype=torch.int64)
                                   .float() / dim))
        t = torch.arange(n, dtype=torch.int64).float()
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().numpy()
    inv_freq = (1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64)
                                .astype(np.float32) / dim))).astype(np.float32)
    t = np.arange(n, dtype=np.int64).astype(np.float32)
    freqs = np.outer(t, inv_freq)
    return np.cos(np.concatenate((freqs, freqs), axis=-1))


def ref_sinusoidal(n, d):
    pos = np.arange(n, dtype=np.float64)[:, None]
    w = 10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)
    pe = np.empty((n, d))
    pe[:, 0::2] = np.sin(pos * w)
    pe[:, 1::2] = np.cos(pos * w)
    return pe


def ref_rope_cos(n, dim, base):
    w = 1.0 / base ** (np.arange(0, dim, 2, dtype=np.float64) / dim)
    f = np.arange(n, dtype=np.float64)[:, None] * w
    return np.cos(np.concatenate([f, f], axis=1))


CASES = [
    {
        "name": "sinusoidal 32768 x 4096 f32",
        "args": ["-e", "sinusoidal", "-n", "32768", "-d", "4096", "-t", "pe"],
        "torch": lambda: torch_sinusoidal(32768, 4096),
        "ref": lambda: ref_sinusoidal(32768, 4096),
        "torch_src": "PositionalEncoding(4096, 32768).pe",
    },
    {
        "name": "rope cos 131072 x 128 f32 (base 500000)",
        "args": ["-e", "rope", "-n", "131072", "-d", "128", "--base",
                 "500000", "-t", "cos"],
        "torch": lambda: torch_rope_cos(131072, 128, 500000.0),
        "ref": lambda: ref_rope_cos(131072, 128, 500000.0),
        "torch_src": "cat(outer(t, inv_freq) x 2).cos()",
    },
]


def build():
    if not os.path.exists(os.path.join(BUILD, "build.ninja")):
        subprocess.run(["meson", "setup", BUILD, "--buildtype=release",
                        "-Dtests=false"], cwd=TOP, check=True,
                       stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", BUILD, "pescope"], check=True,
                   stdout=subprocess.DEVNULL)


def dump_cmd(args, out, threads):
    return [BIN, "dump"] + args + ["--threads", str(threads), "--format",
                                   "npy", "-o", out]


def pescope(args, out, threads):
    """Wall seconds and CPU seconds (user + system, to the microsecond) of
    one dump on threads threads, from its own rusage: the process is this
    one's child, so nothing else's time is in it."""
    cmd = dump_cmd(args, out, threads)
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    _, status, ru = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("%s: %s" % (" ".join(cmd), err))
    return dt, ru.ru_utime + ru.ru_stime


def pescope_peak(args, out, threads):
    """Peak RSS (KiB) of one dump, from /usr/bin/time -v (a small process
    that forks the dump: this one's pages would count in the dump's own
    rusage, which Linux carries over exec)."""
    cmd = ["/usr/bin/time", "-v"] + dump_cmd(args, out, threads)
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        sys.exit("%s: %s" % (" ".join(cmd), r.stderr))
    return int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                         r.stderr).group(1))


def remove(path):
    if os.path.exists(path):
        os.unlink(path)


def set_threads(n):
    if torch is not None:
        torch.set_num_threads(n)


def torch_peak(case, threads):
    """Peak RSS (KiB) of a python3 that imports torch and builds the
    table."""
    r = subprocess.run(["/usr/bin/time", "-v", sys.executable,
                        os.path.abspath(__file__), "--torch-only",
                        str(CASES.index(case)), "--threads", str(threads)],
                       capture_output=True, text=True)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
    return int(m.group(1)) if m and r.returncode == 0 else None


def run_case(case, threads, runs):
    """The medians of one table at one thread count, and the two files."""
    pe_e2e, pe_comp, pe_rss, th_e2e, th_comp = [], [], [], [], []
    cpu_e2e, cpu_comp, thcpu_e2e, thcpu_comp = [], [], [], []
    shm_pe = os.path.join(SHM, "bench-pescope.npy")
    shm_th = os.path.join(SHM, "bench-torch.npy")
    set_threads(threads)
    for _ in range(runs):
        remove(shm_pe)
        dt, cpu = pescope(case["args"], shm_pe, threads)
        pe_e2e.append(dt)
        cpu_e2e.append(cpu)
        dt, cpu = pescope(case["args"], "/dev/null", threads)
        pe_comp.append(dt)
        cpu_comp.append(cpu)
        remove(shm_pe)
        pe_rss.append(pescope_peak(case["args"], shm_pe, threads))
        pe_rss.append(pescope_peak(case["args"], "/dev/null", threads))
        remove(shm_th)
        t0, c0 = time.perf_counter(), time.process_time()
        t = case["torch"]()
        t1, c1 = time.perf_counter(), time.process_time()
        np.save(shm_th, t)
        t2, c2 = time.perf_counter(), time.process_time()
        th_comp.append(t1 - t0)
        th_e2e.append(t2 - t0)
        thcpu_comp.append(c1 - c0)
        thcpu_e2e.append(c2 - c0)
        del t
    return {
        "e2e": (statistics.median(th_e2e), statistics.median(pe_e2e)),
        "comp": (statistics.median(th_comp), statistics.median(pe_comp)),
        "cpu": (statistics.median(cpu_e2e), statistics.median(cpu_comp)),
        "thcpu": (statistics.median(thcpu_e2e),
                  statistics.median(thcpu_comp)),
        "rss": max(pe_rss),
        "files": (shm_pe, shm_th),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, nargs="*", default=None,
                    help="thread counts to compare at (default: 1 and the "
                    "online CPUs)")
    ap.add_argument("--case", nargs="*", default=None,
                    choices=["sinusoidal", "rope"],
                    help="the tables to run (default: both)")
    ap.add_argument("--torch-only", type=int, default=None,
                    help="build case N's PyTorch table and exit (for its "
                    "peak memory)")
    opts = ap.parse_args()
    cpus = os.cpu_count()
    counts = opts.threads or sorted({1, cpus})
    if opts.torch_only is not None:
        set_threads(counts[0])
        CASES[opts.torch_only]["torch"]()
        return
    build()
    model = open("/proc/cpuinfo").read().split("model name")[1]
    versions = ("torch %s" % torch.__version__ if torch is not None else
                "no PyTorch here: numpy transcriptions of its code stand "
                "in for it")
    print("`tools/bench-dump.py --runs %d%s`, %s, %s, %d CPUs (%s); %s, numpy "
          "%s; pescope release build; threads %s (both sides); load average "
          "before the run %.1f\n"
          % (opts.runs, " --case " + " ".join(opts.case) if opts.case else "",
             datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
             platform.machine(), cpus,
             model.split(":")[1].split("\n")[0].strip(), versions,
             np.__version__, ", ".join(str(c) for c in counts),
             os.getloadavg()[0]))
    print("| table | threads | measure | %s | pescope | speed-up |" % OTHER)
    print("|---|---|---|---|---|---|")
    notes = []
    for case in CASES:
        if opts.case and case["name"].split()[0] not in opts.case:
            continue
        comp1 = None
        for k, threads in enumerate(counts):
            m = run_case(case, threads, opts.runs)
            shm_pe, shm_th = m["files"]
            if k == 0:
                a = np.load(shm_pe, mmap_mode="r")
                b = np.load(shm_th, mmap_mode="r")
                ref = case["ref"]()
                err_pe = float(np.max(np.abs(a - ref)))
                err_th = float(np.max(np.abs(b - ref)))
                same_bytes = (os.path.getsize(shm_pe) ==
                              os.path.getsize(shm_th))
                del a, b, ref
            os.unlink(shm_pe)
            os.unlink(shm_th)
            peak_th = torch_peak(case, threads)
            e2e, comp, cpu = m["e2e"], m["comp"], m["cpu"]
            if comp1 is None:
                comp1 = comp[1]
            name = case["name"] if k == 0 else ""
            print("| %s | %d | end to end (npy to /dev/shm) | %.3f s | "
                  "%.3f s | %.1fx |" % (name, threads, e2e[0], e2e[1],
                                         e2e[0] / e2e[1]))
            print("| | %d | computation (pescope: -o /dev/null) | %.3f s | "
                  "%.3f s | %.1fx |" % (threads, comp[0], comp[1],
                                         comp[0] / comp[1]))
            thcpu = m["thcpu"]
            print("| | %d | CPU time (user + system), end to end | %.3f s "
                  "| %.3f s | %.1fx |" % (threads, thcpu[0], cpu[0],
                                          thcpu[0] / cpu[0]))
            print("| | %d | CPU time (user + system), computation | %.3f s "
                  "| %.4f s | %.1fx |" % (threads, thcpu[1], cpu[1],
                                          thcpu[1] / cpu[1]))
            print("| | %d | peak memory | %s | %.1f MiB | |"
                  % (threads, "%.0f MiB" % (peak_th / 1024) if peak_th
                     else "?", m["rss"] / 1024))
            if k > 0:
                print("| | %d | pescope's scaling: computation at 1 thread "
                      "/ at %d | | %.2fx | |" % (threads, threads,
                                                comp1 / comp[1]))
        print("| | | max error vs float64 | %.2g | %.2g | |"
              % (err_th, err_pe))
        notes.append("%s: %s%s; files of %s size" % (
            case["name"], case["torch_src"],
            "" if torch is not None else " (in numpy)",
            "the same" if same_bytes else "different"))
    print()
    for n in notes:
        print("- " + n)
    print("- load average after the run %.1f" % os.getloadavg()[0])


if __name__ == "__main__":
    main()
