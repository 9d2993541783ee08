// The GPU lab's line for other labs (its definition: gpu_lab.cpp, Other labs' overlay): a lab
// window that shows the GPU's times beside its own includes this, not the GPU lab's header.
#pragma once

#include "gpu_device.hpp"
#include "lab.hpp"

namespace normlab::ui {

// One line for other labs: "GPU: LayerNorm fwd+bwd 0.21 ms, RMSNorm 0.15 ms (29% less) at 32×32 ·
// llvmpipe, glFinish + CPU clock" once measured (gpu_device.hpp's gpu_norm_times), "GPU: measuring…" until then, or
// "GPU kernel times: off" (hover: why). For a norm layer's activations of rows × cols. Returns
// the times it showed (null while measuring or off), for the lab's own figures.
const NormKernelTimes* draw_gpu_norm_caption(LabContext& ctx, int rows, int cols);

}  // namespace normlab::ui
