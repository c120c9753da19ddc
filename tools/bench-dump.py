#!/usr/bin/python3
"""pescope dump against the ten lines of PyTorch it replaces (issue 14),
side by side in one run, printed as the Markdown docs/dump.md keeps.

Two tables:
  1. the 32768 x 4096 float32 sinusoidal table, against the PyTorch
     tutorial's PositionalEncoding(d_model, max_len) module;
  2. the RoPE cos table of a Llama-style head (head_dim 128, 131072
     positions, base 500000), against the Hugging Face computation
     (inv_freq outer positions, cat(freqs, freqs), cos).
Three measures, the median of --runs runs, taken in turns:
  end to end:   `pescope dump ... --format npy -o /dev/shm/...` (the whole
                process) against PyTorch building the table + np.save to
                /dev/shm (in this process: no interpreter start, no import);
  computation:  `pescope dump ... --format npy -o /dev/null` against
                PyTorch building the table alone;
  peak memory:  /usr/bin/time -v's maximum resident set of each dump, and of
                a python3 process that imports torch and builds the table.
Each table's largest error against a float64 numpy reference is printed too.

PyTorch runs on one thread (torch.set_num_threads(1)); pescope is built with
--buildtype=release in build-release/ and uses its default --threads (the
online CPUs). Needs Debian's python3-torch and python3-numpy; not part of
`make test`. Usage: tools/bench-dump.py [--runs N]"""
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
import torch

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(TOP, "build-release")
BIN = os.path.join(BUILD, "pescope")
SHM = "/dev/shm"


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
    return PositionalEncoding(d, n).pe.squeeze(1)


def torch_rope_cos(n, dim, base):
    """HF's _compute_default_rope_parameters and LlamaRotaryEmbedding."""
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64)
                               .float() / dim))
    t = torch.arange(n, dtype=torch.int64).float()
    freqs = torch.outer(t, inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos()


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
        subprocess.run(["meson", "setup", BUILD, "--buildtype=release"],
                       cwd=TOP, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", BUILD, "pescope"], check=True,
                   stdout=subprocess.DEVNULL)


def pescope(args, out):
    """Wall seconds, peak RSS (KiB) and CPU seconds (user + system) of one
    dump, under /usr/bin/time."""
    cmd = ["/usr/bin/time", "-v", BIN, "dump"] + args + [
        "--format", "npy", "-o", out]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit("%s: %s" % (" ".join(cmd), r.stderr))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                        r.stderr).group(1))
    cpu = sum(float(re.search(r"%s time \(seconds\): ([\d.]+)" % w,
                              r.stderr).group(1)) for w in ("User", "System"))
    return dt, rss, cpu


def torch_peak(case):
    """Peak RSS (KiB) of a python3 that imports torch and builds the table."""
    r = subprocess.run(["/usr/bin/time", "-v", sys.executable,
                        os.path.abspath(__file__), "--torch-only",
                        str(CASES.index(case))],
                       capture_output=True, text=True)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
    return int(m.group(1)) if m and r.returncode == 0 else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--torch-only", type=int, default=None,
                    help="build case N's PyTorch table and exit (for its "
                    "peak memory)")
    opts = ap.parse_args()
    if opts.torch_only is not None:
        torch.set_num_threads(1)
        CASES[opts.torch_only]["torch"]()
        return
    build()
    torch.set_num_threads(1)
    cpus = os.cpu_count()
    model = open("/proc/cpuinfo").read().split("model name")[1]
    print("`tools/bench-dump.py --runs %d`, %s, %s, %d CPUs (%s); "
          "torch %s on 1 thread, numpy %s; pescope --threads %d "
          "(release build), load average before the run %.1f\n"
          % (opts.runs, datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
             platform.machine(), cpus,
             model.split(":")[1].split("\n")[0].strip(),
             torch.__version__, np.__version__, cpus, os.getloadavg()[0]))
    print("| table | measure | PyTorch | pescope | speed-up |")
    print("|---|---|---|---|---|")
    notes = []
    for case in CASES:
        pe_e2e, pe_comp, pe_rss, th_e2e, th_comp = [], [], [], [], []
        cpu_e2e, cpu_comp = [], []
        shm_pe = os.path.join(SHM, "bench-pescope.npy")
        shm_th = os.path.join(SHM, "bench-torch.npy")
        for _ in range(opts.runs):
            dt, rss, cpu = pescope(case["args"], shm_pe)
            pe_e2e.append(dt)
            pe_rss.append(rss)
            cpu_e2e.append(cpu)
            dt, rss, cpu = pescope(case["args"], "/dev/null")
            pe_comp.append(dt)
            pe_rss.append(rss)
            cpu_comp.append(cpu)
            t0 = time.perf_counter()
            t = case["torch"]()
            t1 = time.perf_counter()
            np.save(shm_th, t.numpy())
            t2 = time.perf_counter()
            th_comp.append(t1 - t0)
            th_e2e.append(t2 - t0)
            del t
        a = np.load(shm_pe, mmap_mode="r")
        b = np.load(shm_th, mmap_mode="r")
        ref = case["ref"]()
        err_pe = float(np.max(np.abs(a - ref)))
        err_th = float(np.max(np.abs(b - ref)))
        same_bytes = os.path.getsize(shm_pe) == os.path.getsize(shm_th)
        del a, b, ref
        os.unlink(shm_pe)
        os.unlink(shm_th)
        e2e = (statistics.median(th_e2e), statistics.median(pe_e2e))
        comp = (statistics.median(th_comp), statistics.median(pe_comp))
        peak_th = torch_peak(case)
        print("| %s | end to end (npy to /dev/shm) | %.3f s | %.3f s | %.1fx |"
              % (case["name"], e2e[0], e2e[1], e2e[0] / e2e[1]))
        print("| | computation (pescope: -o /dev/null) | %.3f s | %.3f s | "
              "%.1fx |" % (comp[0], comp[1], comp[0] / comp[1]))
        print("| | pescope's CPU time (user + system), e2e / computation | | "
              "%.3f s / %.3f s | |" % (statistics.median(cpu_e2e),
                                      statistics.median(cpu_comp)))
        print("| | peak memory | %s | %.1f MiB | |"
              % ("%.0f MiB" % (peak_th / 1024) if peak_th else "?",
                 max(pe_rss) / 1024))
        print("| | max error vs float64 | %.2g | %.2g | |" % (err_th, err_pe))
        notes.append("%s: %s; files of %s size" % (
            case["name"], case["torch_src"],
            "the same" if same_bytes else "different"))
    print()
    for n in notes:
        print("- " + n)


if __name__ == "__main__":
    main()
