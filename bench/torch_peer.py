#!/usr/bin/env python3
"""PyTorch peer of `normlab-cli bench`: the same work in PyTorch, timed in the same run.

`normlab-cli bench --cpu --torch` and `normlab-cli bench --train --torch` start this script as a
subprocess (`python3 -u bench/torch_peer.py --serve`) and interleave its timings with their own,
repetition by repetition, so that a burst of outside load on a shared machine slows both alike.
Protocol: one JSON object per line on stdin, one JSON object per line on stdout.

  {"op": "kernels", "rows": R, "cols": C, "threads": T}
      float32 R×C tensors x, dy (and g, b of C): the peers of normlab-cli bench --cpu's kernels.
        layernorm_forward   torch.nn.functional.layer_norm(x, (C,), g, b, 1e-5), under no_grad
        layernorm_backward  torch.autograd.grad of that graph: dx, dg, db from dy
        rmsnorm_forward     x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * g, no_grad
        rmsnorm_backward    torch.autograd.grad of that graph: dx, dg from dy
  {"op": "train", "norm": N, "x": [[...]], "y": [...], "classes": K, "hidden": L, "width": W,
   "batch": B, "lr": R, "eps": E, "k": k, "seed": S, "threads": T}
      the training lab's MLP in "dtype" (float64, normlab's precision, unless "float32" is asked;
      its name is then "train:N:float32"): L × (Linear → norm → ReLU), then
      Linear → K logits, softmax cross-entropy, Adam (β = 0.9, 0.999, ε = 1e-8); every norm with
      a learned gain g (ones) and bias b (zeros); N ∈ none, layernorm (F.layer_norm), rmsnorm
      (a·rsqrt(mean(a²) + ε)·g + b), prmsnorm (the RMS of the first k units); mini-batches of B
      rows drawn from x, y in a fresh permutation each epoch (as normlab's Trainer).
  {"op": "depth", "placement": P, "norm": N, "vocab": V, "context": T, "layers": L, "width": d,
   "heads": H, "batch": B, "scored": S, "lr": R, "eps": E, "seed": S, "threads": T}
      the depth lab's transformer (normlab-cli depth's model) in "dtype" (float64 unless "float32";
      its name is "depth:P:N" or "depth:P:N:float32"): token and position embeddings N(0, 1), L
      blocks of causal multi-head self-attention and a GELU (erf) feed-forward block of width 4d,
      Post-LN, Pre-LN (final norm) or NormFormer (Pre-LN plus a norm on the attention output, a
      norm on the 4d GELU activations, a learned scale per head; final norm), every norm with a
      learned gain and bias (N ∈ layernorm, rmsnorm), linear weights U(±1/√n_in), biases 0, an
      output head of V logits, cross-entropy over the last S positions, Adam (β = 0.9, 0.999).
      The reply has "parameters", the model's count of learned values. A step draws a fresh batch of random tokens (B×T), runs forward, loss, backward, reads each
      layer's mean |∂L/∂W₂| (NormFormer's measure, as normlab records it) and updates.
  {"op": "run", "kernel": NAME, "steps": N}
      runs a kernel once, or N training steps of the model named NAME ("train:…", "depth:…"), and
      replies {"ms": t}: the time inside Python (time.perf_counter), not the pipe's.
  Every reply is {"ok": true, ...} or {"error": "..."}; a reply to the first line also has
  "torch" (the version), "threads" and "blas": the BLAS library this process loaded, read from
  /proc/self/maps after a matrix product (Debian's torch links libblas.so.3, which is the
  reference BLAS or OpenBLAS, whichever the alternatives system or LD_LIBRARY_PATH picks).

Stand-alone (no normlab): `python3 bench/torch_peer.py [--rows R] [--cols C] [--reps N]
[--threads T]` prints the kernels' medians as JSON; `--depth [--dtype float32] [--steps N]` instead
times the depth lab's default model (Pre-LN, LayerNorm, 6 layers, d = 64, batch 32 of 12 tokens).

Needs PyTorch (Debian: `sudo apt-get install python3-torch`, about 180 packages; it is an optional
peer, not a dependency of NormLab). Without it the script says so (in its first reply when
serving, on stderr otherwise) and exits 3.
"""
import argparse
import json
import math
import statistics
import sys
import time

INSTALL_HINT = "PyTorch is not installed for this Python (Debian: sudo apt-get install python3-torch)"
EPS = 1e-5


def import_torch():
    try:
        import torch
        return torch
    except ImportError:
        return None


def blas_library(torch):
    """Which BLAS serves this process's products: "OpenBLAS (path)" or "reference BLAS (path)",
    from the libblas.so.3 mapped after a float64 product (/proc/self/maps)."""
    a = torch.ones(64, 64, dtype=torch.float64)
    (a @ a).sum().item()
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "/libblas.so" in line})
    except OSError:
        return "unknown (no /proc/self/maps)"
    if not paths:
        return "unknown (no libblas.so mapped)"
    kind = "OpenBLAS" if "openblas" in paths[0] else "reference BLAS"
    return kind + " (" + paths[0] + ")"


def timed_ms(fn):
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


class Kernels:
    """The float32 peers of normlab's fast kernels on one rows×cols shape."""

    def __init__(self, torch, rows, cols):
        import torch.nn.functional as F
        gen = torch.Generator().manual_seed(1)
        self.x = (torch.rand(rows, cols, generator=gen) * 4 - 2).requires_grad_(True)
        self.dy = torch.rand(rows, cols, generator=gen) * 2 - 1
        self.g = (torch.rand(cols, generator=gen) + 0.5).requires_grad_(True)
        self.b = (torch.rand(cols, generator=gen) - 0.5).requires_grad_(True)
        self.torch, self.F, self.cols = torch, F, cols
        # The graphs the backwards run through (built once; retain_graph keeps them).
        self.ln_y = F.layer_norm(self.x, (cols,), self.g, self.b, EPS)
        self.rms_y = self.rmsnorm(self.x, self.g)

    @staticmethod
    def rmsnorm(x, g):  # x · rsqrt(mean(x²) + ε) ⊙ g, in torch ops (PyTorch 1.13 has no RMSNorm)
        return x * (x.pow(2).mean(-1, keepdim=True) + EPS).rsqrt() * g

    def run(self, name):
        torch, F = self.torch, self.F
        if name == "layernorm_forward":
            with torch.no_grad():
                F.layer_norm(self.x, (self.cols,), self.g, self.b, EPS)
        elif name == "layernorm_backward":
            torch.autograd.grad(self.ln_y, (self.x, self.g, self.b), self.dy, retain_graph=True)
        elif name == "rmsnorm_forward":
            with torch.no_grad():
                self.rmsnorm(self.x, self.g)
        elif name == "rmsnorm_backward":
            torch.autograd.grad(self.rms_y, (self.x, self.g), self.dy, retain_graph=True)
        else:
            raise ValueError("unknown kernel " + repr(name))


NAMES = ("layernorm_forward", "layernorm_backward", "rmsnorm_forward", "rmsnorm_backward")


class Training:
    """The training lab's MLP and Adam in float64 or float32, stepping through mini-batches."""

    def __init__(self, torch, req):
        import torch.nn.functional as F
        self.torch, self.F = torch, F
        dt = torch.float32 if req.get("dtype") == "float32" else torch.float64
        torch.manual_seed(int(req.get("seed", 1)))
        self.x = torch.tensor(req["x"], dtype=dt)           # cases × features
        self.y = torch.tensor(req["y"], dtype=torch.long)   # cases
        self.norm, self.eps, self.k = req["norm"], float(req["eps"]), int(req.get("k", 0))
        self.batch = int(req["batch"])
        widths = [self.x.shape[1]] + [int(req["width"])] * int(req["hidden"]) + [int(req["classes"])]
        self.layers = []  # (W out×in, c out) per dense layer, (g, b) per norm
        for i in range(len(widths) - 1):
            gain2 = 2.0 if i + 1 < len(widths) - 1 else 1.0  # He for ReLU layers, as normlab's init
            W = (torch.randn(widths[i + 1], widths[i], dtype=dt) * math.sqrt(gain2 / widths[i])).requires_grad_(True)
            c = torch.zeros(widths[i + 1], dtype=dt, requires_grad=True)
            self.layers.append((W, c))
        n = int(req["width"])
        self.norms = [(torch.ones(n, dtype=dt, requires_grad=True), torch.zeros(n, dtype=dt, requires_grad=True))
                      for _ in range(int(req["hidden"]))] if self.norm != "none" else []
        params = [p for pair in self.layers + self.norms for p in pair]
        self.opt = torch.optim.Adam(params, lr=float(req["lr"]), betas=(0.9, 0.999), eps=1e-8)
        self.order, self.cursor = torch.randperm(self.x.shape[0]), 0

    def normalize(self, a, g, b):
        torch, F = self.torch, self.F
        if self.norm == "layernorm":
            return F.layer_norm(a, (a.shape[-1],), g, b, self.eps)
        head = a if self.norm == "rmsnorm" else a[:, : self.k]  # pRMSNorm: the RMS of the first k
        return a * torch.rsqrt(head.pow(2).mean(-1, keepdim=True) + self.eps) * g + b

    def next_batch(self):
        rows = []
        need = self.batch
        while need:
            if self.cursor == len(self.order):
                self.order, self.cursor = self.torch.randperm(self.x.shape[0]), 0
            take = min(need, len(self.order) - self.cursor)
            rows.append(self.order[self.cursor : self.cursor + take])
            self.cursor += take
            need -= take
        idx = rows[0] if len(rows) == 1 else self.torch.cat(rows)
        return self.x[idx], self.y[idx]

    def step(self):
        F = self.F
        xb, yb = self.next_batch()
        h = xb
        for i, (W, c) in enumerate(self.layers):
            h = F.linear(h, W, c)
            if i + 1 < len(self.layers):
                if self.norms:
                    h = self.normalize(h, *self.norms[i])
                h = F.relu(h)
        loss = F.cross_entropy(h, yb)
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        self.opt.step()
        return loss.item()

    def run(self, steps):
        for _ in range(steps):
            self.step()


class Depth:
    """The depth lab's transformer (normlab's transformer.hpp) and Adam, float64 or float32."""

    def __init__(self, torch, req):
        import torch.nn.functional as F
        self.torch, self.F = torch, F
        self.dt = dt = torch.float32 if req.get("dtype") == "float32" else torch.float64
        torch.manual_seed(int(req.get("seed", 1)))
        self.placement, self.norm, self.eps = req["placement"], req["norm"], float(req["eps"])
        self.V, self.T, self.B = int(req["vocab"]), int(req["context"]), int(req["batch"])
        self.d, self.H, self.scored = int(req["width"]), int(req["heads"]), int(req["scored"])
        d, nf = self.d, self.placement == "normformer"
        params = []

        def param(t):
            t.requires_grad_(True)
            params.append(t)
            return t

        def linear(n_out, n_in):  # W n_out×n_in U(±1/√n_in), c 0
            a = 1.0 / math.sqrt(n_in)
            return param((torch.rand(n_out, n_in, dtype=dt) * 2 - 1) * a), param(torch.zeros(n_out, dtype=dt))

        def norm(n):
            return param(torch.ones(n, dtype=dt)), param(torch.zeros(n, dtype=dt))

        self.tok = param(torch.randn(self.V, d, dtype=dt))
        self.pos = param(torch.randn(self.T, d, dtype=dt))
        self.blocks = []
        for _ in range(int(req["layers"])):
            blk = {"ln1": norm(d), "qkv": linear(3 * d, d), "proj": linear(d, d), "ln2": norm(d),
                   "fc1": linear(4 * d, d), "fc2": linear(d, 4 * d)}
            if nf:
                blk.update(lna=norm(d), lnf=norm(4 * d), gamma=param(torch.ones(self.H, dtype=dt)))
            self.blocks.append(blk)
        self.final = norm(d) if self.placement != "postln" else None
        self.head = linear(self.V, d)
        self.opt = torch.optim.Adam(params, lr=float(req["lr"]), betas=(0.9, 0.999), eps=1e-8)
        self.parameters = sum(p.numel() for p in params)
        self.mask = torch.ones(self.T, self.T, dtype=torch.bool).tril()

    def normalize(self, a, gb):
        g, b = gb
        if self.norm == "layernorm":
            return self.F.layer_norm(a, (a.shape[-1],), g, b, self.eps)
        return a * self.torch.rsqrt(a.pow(2).mean(-1, keepdim=True) + self.eps) * g + b

    def attention(self, x, blk):  # x: B×T×d
        B, T, d, H = x.shape[0], self.T, self.d, self.H
        q, k, v = self.F.linear(x, *blk["qkv"]).split(d, dim=-1)
        q, k, v = (t.reshape(B, T, H, d // H).transpose(1, 2) for t in (q, k, v))  # B×H×T×d_h
        s = (q @ k.transpose(-2, -1)) / math.sqrt(d // H)
        y = s.masked_fill(~self.mask, float("-inf")).softmax(-1) @ v                 # B×H×T×d_h
        if "gamma" in blk:
            y = y * blk["gamma"].view(1, H, 1, 1)
        return self.F.linear(y.transpose(1, 2).reshape(B, T, d), *blk["proj"])

    def ffn(self, x, blk):
        h = self.F.gelu(self.F.linear(x, *blk["fc1"]))
        if "lnf" in blk:
            h = self.normalize(h, blk["lnf"])
        return self.F.linear(h, *blk["fc2"])

    def step(self):
        torch, F = self.torch, self.F
        tokens = torch.randint(0, self.V, (self.B, self.T))
        targets = torch.randint(0, self.V, (self.B, self.T))
        targets[:, : self.T - self.scored] = -100   # only the last S positions are scored
        x = self.tok[tokens] + self.pos
        for blk in self.blocks:
            if self.placement == "postln":
                x = self.normalize(x + self.attention(x, blk), blk["ln1"])
                x = self.normalize(x + self.ffn(x, blk), blk["ln2"])
            else:
                a = self.attention(self.normalize(x, blk["ln1"]), blk)
                x = x + (self.normalize(a, blk["lna"]) if "lna" in blk else a)
                x = x + self.ffn(self.normalize(x, blk["ln2"]), blk)
        if self.final is not None:
            x = self.normalize(x, self.final)
        logits = F.linear(x, *self.head)
        loss = F.cross_entropy(logits.reshape(-1, self.V), targets.reshape(-1), ignore_index=-100)
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        measure = [blk["fc2"][0].grad.abs().mean().item() for blk in self.blocks]
        self.opt.step()
        return loss.item(), measure

    def run(self, steps):
        for _ in range(steps):
            self.step()


DEPTH_DEFAULTS = {"op": "depth", "placement": "preln", "norm": "layernorm", "vocab": 11, "context": 12,
                  "layers": 6, "width": 64, "heads": 4, "batch": 32, "scored": 6, "lr": 1e-3, "eps": 1e-5,
                  "seed": 1}


def depth_name(req):
    return "depth:" + req["placement"] + ":" + req["norm"] + (":float32" if req.get("dtype") == "float32" else "")


def serve(torch):
    """The line protocol of the module docstring, until stdin closes."""
    first = True
    kernels, trainings = None, {}
    for line in sys.stdin:
        reply = {"ok": True}
        try:
            if torch is None:
                reply = {"error": INSTALL_HINT}
            else:
                req = json.loads(line)
                op = req.get("op")
                if "threads" in req:
                    torch.set_num_threads(int(req["threads"]))
                if op == "kernels":
                    kernels = Kernels(torch, int(req["rows"]), int(req["cols"]))
                elif op == "train":
                    suffix = ":float32" if req.get("dtype") == "float32" else ""
                    trainings["train:" + req["norm"] + suffix] = Training(torch, req)
                elif op == "depth":
                    trainings[depth_name(req)] = Depth(torch, req)
                    reply["parameters"] = trainings[depth_name(req)].parameters
                elif op == "run" and req.get("kernel") in trainings:
                    training, steps = trainings[req["kernel"]], int(req.get("steps", 1))
                    reply["ms"] = timed_ms(lambda: training.run(steps))
                elif op == "run" and kernels:
                    reply["ms"] = timed_ms(lambda: kernels.run(req["kernel"]))
                else:
                    reply = {"error": "unexpected request " + line.strip()[:200]}
        except Exception as e:  # the error goes back to normlab-cli, which reports it
            reply = {"error": type(e).__name__ + ": " + str(e)}
        if first and torch is not None:
            reply["torch"], reply["threads"] = torch.__version__, torch.get_num_threads()
            reply["blas"] = blas_library(torch)
        first = False
        print(json.dumps(reply), flush=True)
    return 0 if torch is not None else 3


def standalone_depth(torch, args):
    torch.set_num_threads(1)
    req = dict(DEPTH_DEFAULTS, dtype=args.dtype)
    model = Depth(torch, req)
    model.run(3)  # warm-up
    ms = statistics.median(timed_ms(lambda: model.run(args.steps)) / args.steps for _ in range(args.reps))
    print(json.dumps({"model": depth_name(req), "ms_per_step": ms, "threads": 1, "torch": torch.__version__,
                      "blas": blas_library(torch)}))
    return 0


def standalone(torch, args):
    if args.depth:
        return standalone_depth(torch, args)
    torch.set_num_threads(args.threads)
    k = Kernels(torch, args.rows, args.cols)
    n = args.rows * args.cols
    out = {"rows": args.rows, "cols": args.cols, "threads": torch.get_num_threads(), "torch": torch.__version__,
           "blas": blas_library(torch)}
    for name in NAMES:
        k.run(name)  # warm-up: page faults, the allocator, the thread pool
        ms = statistics.median(timed_ms(lambda: k.run(name)) for _ in range(args.reps))
        bytes_moved = (8 if name.endswith("forward") else 12) * n
        out[name] = {"ms": ms, "gbps": bytes_moved / (ms * 1e-3) / 1e9}
    print(json.dumps(out))
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", action="store_true", help="the line protocol (what normlab-cli uses)")
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--depth", action="store_true", help="time the depth lab's model instead")
    parser.add_argument("--dtype", choices=("float64", "float32"), default="float64")
    parser.add_argument("--steps", type=int, default=20, help="--depth: steps per repetition")
    args = parser.parse_args()
    torch = import_torch()
    if args.serve:
        return serve(torch)
    if torch is None:
        print(INSTALL_HINT + "; nothing to measure", file=sys.stderr)
        return 3
    return standalone(torch, args)


if __name__ == "__main__":
    sys.exit(main())
