// NormLab core: measured gradient magnitudes against δ (paper eq. 8–10).
#include "normlab/norm/gradients.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace normlab {

std::string_view to_string(Scaling s) { return s == Scaling::Input ? "input_scaling" : "weight_scaling"; }

GradientProbe random_gradient_probe(unsigned seed, Eigen::Index B, Eigen::Index m, Eigen::Index n) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    auto draw = [&](Eigen::Index rows, Eigen::Index cols) {
        Mat out(rows, cols);
        for (Eigen::Index i = 0; i < out.size(); ++i) out.data()[i] = normal(rng);
        return out;
    };
    GradientProbe p;
    p.x = draw(B, m);
    p.W = draw(n, m);
    p.dy = draw(B, n);
    p.g = Vec::Ones(n);
    p.b = Vec::Zero(n);
    return p;
}

double probe_loss(const GradientProbe& probe, const Mat& y) {
    return probe.target ? 0.5 * (y - *probe.target).squaredNorm() : (probe.dy.array() * y.array()).sum();
}

LayerGrads probe_gradients(const NormSpec& spec, const Mat& x, const LayerParams& params, const GradientProbe& probe,
                           double* loss) {
    const LayerForward f = layer_forward(spec, x, params);
    const Mat dy = probe.target ? Mat(f.y - *probe.target) : probe.dy;  // B×n, ∂L/∂y
    if (loss) *loss = probe_loss(probe, f.y);
    return layer_backward(spec, x, params, f, dy);
}

GradNorms gradient_norms(const NormSpec& spec, const GradientProbe& probe, Scaling scaling, double delta) {
    const Mat x = scaling == Scaling::Input ? Mat(probe.x * delta) : probe.x;
    const LayerParams params{scaling == Scaling::Weight ? Mat(probe.W * delta) : probe.W, probe.g, probe.b};
    const LayerGrads gr = probe_gradients(spec, x, params, probe);
    return {gr.dW->norm(), gr.dx.norm(), gr.dg.norm(), gr.db.norm()};
}

double loglog_slope(const std::vector<double>& x, const std::vector<double>& y) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int count = 0;
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (!(x[i] > 0.0) || !(y[i] > 0.0) || !std::isfinite(x[i]) || !std::isfinite(y[i])) continue;
        const double lx = std::log10(x[i]), ly = std::log10(y[i]);
        sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly;
        ++count;
    }
    if (count < 2) return std::nan("");
    const double denom = count * sxx - sx * sx;
    return denom != 0.0 ? (count * sxy - sx * sy) / denom : std::nan("");
}

GradientSweep gradient_sweep(const NormSpec& spec, const GradientProbe& probe, Scaling scaling, double lo,
                             double hi, int points) {
    if (!(lo > 0.0) || !(hi > lo) || points < 2) throw std::invalid_argument("gradient_sweep needs 0 < lo < hi, ≥ 2 points");
    GradientSweep sweep;
    std::vector<double> dW, dx, dg, db;
    for (int i = 0; i < points; ++i) {
        const double t = static_cast<double>(i) / (points - 1);
        const double delta = lo * std::pow(hi / lo, t);
        const GradNorms gn = gradient_norms(spec, probe, scaling, delta);
        sweep.delta.push_back(delta);
        sweep.norms.push_back(gn);
        dW.push_back(gn.dW), dx.push_back(gn.dx), dg.push_back(gn.dg), db.push_back(gn.db);
    }
    sweep.slope = {loglog_slope(sweep.delta, dW), loglog_slope(sweep.delta, dx), loglog_slope(sweep.delta, dg),
                   loglog_slope(sweep.delta, db)};
    return sweep;
}

SgdTrace sgd_trace(const NormSpec& spec, const GradientProbe& probe, double delta, double learning_rate, int steps) {
    if (!probe.target) throw std::invalid_argument("sgd_trace needs a target t");
    SgdTrace trace;
    LayerParams params{Mat(probe.W * delta), probe.g, probe.b};
    for (int s = 0; s < steps; ++s) {
        double loss = 0.0;
        const LayerGrads gr = probe_gradients(spec, probe.x, params, probe, &loss);
        const double wnorm = params.W->norm();
        trace.loss.push_back(loss);
        trace.weight_norm.push_back(wnorm);
        trace.output.push_back(layer_forward(spec, probe.x.topRows(1), params).y.row(0).transpose());
        // W ← W − η ∂L/∂W; the step is η‖∂L/∂W‖ ∝ 1/δ while ‖W‖ ∝ δ: relative step ∝ 1/δ².
        const Mat step = learning_rate * *gr.dW;
        trace.relative_step.push_back(wnorm > 0.0 ? step.norm() / wnorm : 0.0);
        *params.W -= step;
    }
    return trace;
}

}  // namespace normlab
