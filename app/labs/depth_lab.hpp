// The Depth lab: Post-LN, Pre-LN and NormFormer transformers trained side by side on a worker
// thread (same data, same seeds): live loss curves, NormFormer's per-layer gradient picture and
// its evolution, a learning-rate sweep that shows where each placement diverges, the papers'
// claims next to what NormLab measures (with both conditions), and samples from the models.
#pragma once

#include "lab.hpp"
#include "plot_view.hpp"
#include "ui_util.hpp"

#include <normlab/labs/depth_lab.hpp>
#include <normlab/plot/plot.hpp>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace normlab::ui {

inline constexpr LabInfo kDepthInfo{
    tr_later("Depth: Post-LN, Pre-LN and NormFormer, per-layer gradients, learning-rate sweep"),
    "Post-LN (Vaswani et al.):  h = LN(x + Attn(x)),  out = LN(h + FFN(h))\n"
    "Pre-LN (analysed by Xiong et al. 2020):  h = x + Attn(LN(x)),  out = h + FFN(LN(h)),  final LN\n"
    "NormFormer (Shleifer et al. 2021):  h = x + LN(Attn_γ(LN(x))),  out = λ ⊙ h + W₂ LN(GELU(W₁ LN(h)))\n"
    "    Attn_γ: a learned scale γᵢ per head before the output projection; λ optional (off by default)\n"
    "LN is LayerNorm (a − μ)/σ or RMSNorm a / RMS(a) (RMSNorm paper, eq. 2–4), with gain g and bias b\n"
    "Init of every linear W (n_out × n_in): uniform U(±1/√n_in) (PyTorch's nn.Linear) or Xavier U(±√(6/(n_in + n_out)))\n"
    "Per-layer measure (NormFormer, Fig. 2):  g_l = mean_ij |∂L/∂W₂|_ij of layer l's FFN output weights,\n"
    "    averaged over the first N steps;  first ÷ last = g_1 / g_L\n"
    "Loss: cross-entropy over the scored positions (sort, copy: the answer digits; text: every symbol)\n"
    "Sweep: final loss = mean training loss of the last 5 steps; diverged: ≥ the first step's, or not finite",
    "normlab::DepthLabWorker and DepthLab (runs, sweep, samples), depth_claims, depth_conditions,\n"
    "depth_loss_plot, depth_layer_grad_plot, depth_evolution_plot, depth_sweep_plot\n"
    "(core/src/labs/depth_lab.cpp) over DepthTrainer, mean_layer_grads (core/src/models/depth.cpp), Transformer\n"
    "(core/src/models/transformer.cpp) and SequenceTask (core/src/models/sequence_tasks.cpp); drawn by app/labs/depth_lab.cpp.",
};

// What is on screen, built from one snapshot.
struct DepthFigures {
    std::vector<Plot> plots;   // depth_lab_plots: found by name (plot_named)
    std::vector<DepthClaim> claims;
    std::string conditions;
};
// Rebuilt only when a new snapshot arrives or a display setting changes: the key is the snapshot
// and DepthLabState's measure_steps and evolution.
using DepthFiguresCache = CachedFigure<std::tuple<std::shared_ptr<const DepthLabSnapshot>, int, int>, DepthFigures>;

// Display-only state of the Depth lab; the settings live in DepthLabState, the numbers in the
// worker's snapshots.
struct DepthUi {
    std::unique_ptr<DepthLabWorker> worker;   // started when the lab is first drawn
    std::string failure;                      // why the worker stopped for good (out of memory); empty while it works
    DepthLabState sent;                       // the settings the worker was last given
    bool playing = true;                      // the lab trains when opened
    std::shared_ptr<const DepthLabSnapshot> shown;   // the snapshot on screen
    DepthFiguresCache figures;
    PlotView loss_view, layers_view, evolution_view, sweep_view;   // depth_lab_plots order
    TextField text_path, prompt;              // the two text fields (applied on Enter; fields.hpp)
};
using DepthContext = LabContextOf<DepthUi>;

// The lab's row in the table of labs (labs.cpp): all the table needs of it (LabWindow, lab.hpp).
// Its draw function reads and edits ctx.session.depth. Its four figures as they are now: from
// the run on screen, or, when the lab has not run yet, of the session's models before their
// first step (axes, no data: a whole run takes a minute at the defaults; normlab-cli depth and
// core's run_depth_lab train one headless). A presenter slide may name figures depth_claims (the
// papers' claims beside what this model measures), depth_layer_grads, depth_loss,
// depth_layer_grads_over_steps, depth_lr_sweep; controls play (Play / Pause, also Space), reset.
extern const LabWindow<DepthContext> kDepthWindow;

}  // namespace normlab::ui
