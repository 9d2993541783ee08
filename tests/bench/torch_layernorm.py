#!/usr/bin/env python3
"""PyTorch's CPU layer_norm on the shape normlab-cli bench times, for docs/BENCHMARKS.md.

Usage:
    python3 tests/bench/torch_layernorm.py [--rows 8192] [--cols 4096] [--reps 20]
                                           [--cli build/bin/normlab-cli]

Times torch.nn.functional.layer_norm (float32, weight and bias, eps 1e-5) forward, and its
backward through autograd (dx, dweight, dbias from a given dy), as the median of --reps runs after
one warm-up, and reports ms and GB/s with normlab's byte counts: forward 8 bytes per element (read
x, write y), backward 12 (read x and dy, write dx). PyTorch allocates its outputs on every call;
that cost is part of what it is measured with here, as it is in a model.

With --cli, normlab-cli bench --cpu is run on the same shape first, in the same invocation, and
the ratios normlab / PyTorch are printed as well. Output: one JSON object on stdout.

Needs PyTorch (Debian: python3-torch). Without it the script says so on stderr and exits 3.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time


def median_ms(fn, reps):
    fn()  # warm-up: first-touch page faults, thread-pool start, allocator
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=8192)
    parser.add_argument("--cols", type=int, default=4096)
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--cli", help="path to normlab-cli: also run `bench --cpu` on the same shape")
    args = parser.parse_args()
    if args.rows < 1 or args.cols < 1 or args.reps < 1:
        parser.error("--rows, --cols and --reps must be at least 1")

    out = {"rows": args.rows, "cols": args.cols, "reps": args.reps}
    if args.cli:
        run = subprocess.run([args.cli, "bench", "--cpu", "--rows", str(args.rows), "--cols", str(args.cols),
                              "--reps", str(args.reps), "--json"], capture_output=True, text=True, check=True)
        out["normlab"] = json.loads(run.stdout)

    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        print("PyTorch is not installed (Debian: apt-get install python3-torch); nothing to measure", file=sys.stderr)
        if "normlab" in out:
            print(json.dumps(out))
        return 3

    n = args.rows * args.cols
    gen = torch.Generator().manual_seed(1)
    x = (torch.rand(args.rows, args.cols, generator=gen) * 4 - 2).requires_grad_(True)
    dy = torch.rand(args.rows, args.cols, generator=gen) * 2 - 1
    weight = (torch.rand(args.cols, generator=gen) + 0.5).requires_grad_(True)
    bias = (torch.rand(args.cols, generator=gen) - 0.5).requires_grad_(True)

    def forward():
        with torch.no_grad():
            F.layer_norm(x, (args.cols,), weight, bias, 1e-5)

    y = F.layer_norm(x, (args.cols,), weight, bias, 1e-5)  # the graph the backward runs through

    def backward():
        torch.autograd.grad(y, (x, weight, bias), dy, retain_graph=True)

    torch_result = {"version": torch.__version__, "threads": torch.get_num_threads()}
    for name, fn, bytes_per_element in (("layernorm_forward", forward, 8), ("layernorm_backward", backward, 12)):
        ms = median_ms(fn, args.reps)
        torch_result[name] = {"ms": ms, "gbps": bytes_per_element * n / (ms * 1e-3) / 1e9}
    out["torch"] = torch_result
    if "normlab" in out:
        out["normlab_over_torch"] = {
            k: out["normlab"][k]["gbps"] / torch_result[k]["gbps"] for k in ("layernorm_forward", "layernorm_backward")}
        copy = out["normlab"]["copy"]["gbps"]
        out["torch_of_copy"] = {k: torch_result[k]["gbps"] / copy for k in ("layernorm_forward", "layernorm_backward")}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
