#!/usr/bin/python3
"""Independent reference for tests/test_train.c: the trainer of
include/pescope/train.h, transcribed from its definition (not from
src/kernel/train.c):
- splitmix64 (Vigna's reference splitmix64.c; Steele, Lea & Flood 2014)
  and Box-Muller (Box & Muller 1958) for GPT-2's N(0, 0.02^2) init, each
  draw rounded to float32 (learned.h),
- one causal attention layer in GPT-2's row-vector layout (x W, W [in, out];
  openai/gpt-2 model.py), scaled dot-product attention (Vaswani et al. 2017,
  eq. 1), a residual, a linear read-out and cross-entropy, written with
  whole-array numpy operations,
- the distance task's ||P P^T - K||^2 / n^2 with a Gaussian K,
- Adam (Kingma & Ba 2015, Algorithm 1).
The gradients are not derived by hand here: they are complex-step
derivatives (Squire & Trapp 1998: f'(x) = Im f(x + ih) / h, exact to
rounding for h = 1e-30, since no difference is taken), one forward pass
per parameter, so a mistake in the C backward pass cannot be copied.

Run: /usr/bin/python3 tests/ref/train.py > tests/train_ref.h
     /usr/bin/python3 tests/ref/train.py --check tests/train_ref.h
"""
import math
import re
import sys

try:
    import numpy as np
except ImportError:
    print("numpy is not installed: skipped")
    sys.exit(77)

M64 = (1 << 64) - 1
TAG = 0x747261696E000000  # PE_TRAIN_SEED_TAG, "train"
TASKS = ["offset", "reverse", "first", "distance"]
H_STEP = 1e-30


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def learned_init(rows, cols, seed):
    """pe_learned_init: N(0, 0.02^2) in row-major order, float32 draws."""
    st, out, total = seed, [], rows * cols
    while len(out) < total:
        st, a = splitmix64(st)
        st, b = splitmix64(st)
        u1 = ((a >> 11) + 1) * 2.0 ** -53
        u2 = ((b >> 11) + 1) * 2.0 ** -53
        r = math.sqrt(-2.0 * math.log(u1))
        out += [float(np.float32(0.02 * r * math.cos(2 * math.pi * u2))),
                float(np.float32(0.02 * r * math.sin(2 * math.pi * u2)))]
    return np.array(out[:total]).reshape(rows, cols)


class Stream:
    def __init__(self, state):
        self.state = state

    def token(self, vocab):
        self.state, z = splitmix64(self.state)
        return z % vocab


def init(cfg):
    """Parameters (a dict of arrays) and the two streams."""
    n, d, V = cfg["n"], cfg["d"], cfg["vocab"]
    p = {"P": learned_init(n, d, cfg["seed"])}
    chain = cfg["seed"] ^ TAG
    shapes = [("E", V, d), ("Wq", d, d), ("Wk", d, d), ("Wv", d, d),
              ("Wo", d, d), ("Wout", d, V)]
    for name, rows, cols in shapes:
        chain, s = splitmix64(chain)
        if cfg["task"] != "distance":
            p[name] = learned_init(rows, cols, s)
    chain, train = splitmix64(chain)
    chain, held = splitmix64(chain)
    return p, Stream(train), Stream(held)


ORDER = ["P", "E", "Wq", "Wk", "Wv", "Wo", "Wout"]


def sequence(cfg, stream):
    """Tokens [n] and targets [n] (-1: none) of one sequence."""
    n, V, task = cfg["n"], cfg["vocab"], cfg["task"]
    y = [-1] * n
    if task == "reverse":
        h = (n + 1) // 2
        t = [stream.token(V) for _ in range(h)]
        t += [t[n - 1 - i] for i in range(h, n)]
        for i in range(h - 1, n - 1):
            y[i] = t[i + 1]
        return t, y
    t = [stream.token(V) for _ in range(n)]
    for i in range(1, n):
        if task == "first":
            y[i] = t[0]
        elif i >= cfg["k"]:
            y[i] = t[i - cfg["k"]]
    return t, y


def softmax_last(s, mask):
    """Softmax over the last axis where mask holds, the max of the real
    part taken out (a constant: the function is unchanged)."""
    m = np.where(mask, s.real, -np.inf).max(axis=-1, keepdims=True)
    e = np.where(mask, np.exp(np.where(mask, s - m, 0)), 0)
    return e / e.sum(axis=-1, keepdims=True)


def loss(cfg, p, batch):
    """The mean cross-entropy over the batch's targets (complex-safe)."""
    if cfg["task"] == "distance":
        n, s = cfg["n"], cfg["sigma"]
        i = np.arange(n)
        K = np.exp(-((i[:, None] - i[None, :]) ** 2) / (2 * s * s))
        R = p["P"] @ p["P"].T - K
        return (R * R).sum() / (n * n)
    n, d, H = cfg["n"], cfg["d"], cfg["heads"]
    dh = d // H
    tok = np.array([t for t, _ in batch])
    X = p["E"][tok] + p["P"][None]                     # [B, n, d]
    heads = lambda A: A.reshape(len(batch), n, H, dh).transpose(0, 2, 1, 3)
    Q, K, V = heads(X @ p["Wq"]), heads(X @ p["Wk"]), heads(X @ p["Wv"])
    S = (Q @ K.transpose(0, 1, 3, 2)) * (1.0 / math.sqrt(dh))
    causal = np.tril(np.ones((n, n), dtype=bool))
    A = softmax_last(S, causal)
    O = (A @ V).transpose(0, 2, 1, 3).reshape(len(batch), n, d)
    Z = (X + O @ p["Wo"]) @ p["Wout"]                  # [B, n, V]
    total, count = 0, 0
    for b, (_, y) in enumerate(batch):
        for i, yi in enumerate(y):
            if yi < 0:
                continue
            z = Z[b, i]
            m = z.real.max()
            total = total + np.log(np.exp(z - m).sum()) + m - z[yi]
            count += 1
    return total / count


def complex_step_grad(cfg, p, batch):
    g = {}
    for name in ORDER:
        if name not in p:
            continue
        g[name] = np.zeros_like(p[name])
        for idx in np.ndindex(p[name].shape):
            q = {k: v.astype(complex) for k, v in p.items()}
            q[name][idx] += 1j * H_STEP
            g[name][idx] = loss(cfg, q, batch).imag / H_STEP
    return g


def adam(cfg, p, g, m, v, t):
    b1, b2, lr, eps = cfg["beta1"], cfg["beta2"], cfg["lr"], cfg["eps"]
    for k in p:
        m[k] = b1 * m[k] + (1 - b1) * g[k]
        v[k] = b2 * v[k] + (1 - b2) * g[k] * g[k]
        mhat = m[k] / (1 - b1 ** t)
        vhat = v[k] / (1 - b2 ** t)
        p[k] = p[k] - lr * mhat / (np.sqrt(vhat) + eps)


def run(cfg, steps=3):
    """Step 0's loss and gradient, and the parameters after each step."""
    p, train, _ = init(cfg)
    m = {k: np.zeros_like(a) for k, a in p.items()}
    v = {k: np.zeros_like(a) for k, a in p.items()}
    out = {"loss": [], "grad0": None, "params": []}
    for t in range(1, steps + 1):
        batch = ([] if cfg["task"] == "distance" else
                 [sequence(cfg, train) for _ in range(cfg["batch"])])
        out["loss"].append(float(loss(cfg, p, batch).real))
        g = complex_step_grad(cfg, p, batch)
        if t == 1:
            out["grad0"] = flat(g)
        adam(cfg, p, g, m, v, t)
        out["params"].append(flat(p))
    return out


def flat(p):
    return np.concatenate([p[k].ravel() for k in ORDER if k in p])


def base(task, **kw):
    cfg = dict(task=task, k=2, n=6, d=4, vocab=5, heads=2, batch=3,
               lr=1e-2, beta1=0.9, beta2=0.999, eps=1e-8, sigma=1.5,
               seed=7)
    cfg.update(kw)
    return cfg


# The configurations tests/test_train.c builds (train_ref.h's order).
CASES = [
    ("offset", base("offset", k=2)),
    ("reverse", base("reverse", n=7, seed=11)),
    ("first", base("first", n=5, heads=1, seed=3)),
    ("distance", base("distance", n=6, d=3, seed=5)),
]


def header():
    lines = ["/* Generated by tests/ref/train.py (numpy, complex-step "
             "gradients); do not edit. */",
             "#ifndef PESCOPE_TEST_TRAIN_REF_H",
             "#define PESCOPE_TEST_TRAIN_REF_H",
             "",
             "struct train_ref {",
             "\tconst char *task;",
             "\tsize_t k, n, d, vocab, heads, batch;",
             "\tdouble sigma;",
             "\tuint64_t seed;",
             "\tsize_t count;\t\t/* parameters */",
             "\tdouble loss[3];\t\t/* the batch loss before steps 1..3 */",
             "\tconst double *grad0;\t/* the gradient before step 1 */",
             "\tconst double *after[3]; /* the parameters after steps 1..3 */",
             "};", ""]
    for name, cfg in CASES:
        r = run(cfg)
        arr = lambda tag, a: lines.extend(
            ["static const double ref_%s_%s[] = {" % (name, tag)] +
            ["\t%s," % ", ".join("%.17g" % x for x in a[i:i + 3])
             for i in range(0, len(a), 3)] + ["};"])
        arr("grad0", r["grad0"])
        for s in range(3):
            arr("after%d" % (s + 1), r["params"][s])
        cfg["_r"] = r
    lines.append("static const struct train_ref train_refs[] = {")
    for name, cfg in CASES:
        r = cfg.pop("_r")
        lines.append("\t{\"%s\", %d, %d, %d, %d, %d, %d, %.17g, %d, %d," % (
            name, cfg["k"], cfg["n"], cfg["d"], cfg["vocab"], cfg["heads"],
            cfg["batch"], cfg["sigma"], cfg["seed"], len(r["grad0"])))
        lines.append("\t    {%s}," % ", ".join("%.17g" % x for x in r["loss"]))
        lines.append("\t    ref_%s_grad0, {ref_%s_after1, ref_%s_after2, "
                     "ref_%s_after3}}," % (name, name, name, name))
    lines += ["};", "", "#endif", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    text = header()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        # numbers within 1e-12 (another numpy's exp may round apart)
        with open(sys.argv[2]) as f:
            have = f.read()
        num = re.compile(r"-?\d+(?:\.\d*)?(?:e[-+]?\d+)?")
        a, b = num.findall(have), num.findall(text)
        same = len(a) == len(b) and all(
            math.isclose(float(x), float(y), rel_tol=1e-12, abs_tol=1e-15)
            for x, y in zip(a, b))
        if not same or num.sub("", have) != num.sub("", text):
            print("FAIL %s is not tests/ref/train.py's output: regenerate "
                  "it" % sys.argv[2])
            sys.exit(1)
        print("ok   %s is tests/ref/train.py's output" % sys.argv[2])
        sys.exit(0)
    sys.stdout.write(text)
