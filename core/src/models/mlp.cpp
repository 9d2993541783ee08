// NormLab core: the training lab's MLP (see mlp.hpp).
//
// [SECTION] Names
// [SECTION] Optimizers
// [SECTION] Dense layer
// [SECTION] Activation layer
// [SECTION] Norm layer (core's norm_forward / norm_backward)
// [SECTION] MLP
// [SECTION] Loss
// [SECTION] Instances
//
// Shapes: prev B×in, output B×out, W out×in, c/g/b out×1. One case per row.
#include "normlab/models/mlp.hpp"

#include "normlab/base/random.hpp"
#include "normlab/base/stopwatch.hpp"
#include "models/model_kernels.hpp"

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace normlab {

using Eigen::Index;

// [SECTION] Names ---------------------------------------------------------------------------

std::string_view to_string(Activation activation) {
    switch (activation) {
        case Activation::ReLU: return "relu";
        case Activation::Tanh: return "tanh";
        case Activation::GELU: return "gelu";
    }
    return "unknown";
}

std::optional<Activation> parse_activation(std::string_view name) {
    if (name == "relu") return Activation::ReLU;
    if (name == "tanh") return Activation::Tanh;
    if (name == "gelu") return Activation::GELU;
    return std::nullopt;
}

std::string_view to_string(Placement placement) {
    return placement == Placement::BeforeActivation ? "before" : "after";
}

std::optional<Placement> parse_placement(std::string_view name) {
    if (name == "before") return Placement::BeforeActivation;
    if (name == "after") return Placement::AfterActivation;
    return std::nullopt;
}

std::string_view to_string(Precision precision) { return precision == Precision::F32 ? "f32" : "f64"; }

std::optional<Precision> parse_precision(std::string_view name) {
    if (name == "f64") return Precision::F64;
    if (name == "f32") return Precision::F32;
    return std::nullopt;
}

std::string_view to_string(OptimizerKind kind) { return kind == OptimizerKind::SGD ? "sgd" : "adam"; }

std::optional<OptimizerKind> parse_optimizer(std::string_view name) {
    if (name == "sgd") return OptimizerKind::SGD;
    if (name == "adam") return OptimizerKind::Adam;
    return std::nullopt;
}

// [SECTION] Optimizers ----------------------------------------------------------------------

template <class S>
void Optimizer::update(BasicParam<S>& p) const {
    using MatS = MatOf<S>;
    if (!p.trainable) return;
    if (p.m.size() != p.value.size()) p.m = MatS::Zero(p.value.rows(), p.value.cols());
    auto theta = p.value.array();
    const auto g = p.grad.array();
    auto m = p.m.array();
    if (spec_.kind == OptimizerKind::SGD) {
        // v ← μ v + ∂L/∂θ ;  θ ← θ − lr v
        m = S(spec_.momentum) * m + g;
        theta -= S(spec_.lr) * m;
        return;
    }
    if (p.v.size() != p.value.size()) p.v = MatS::Zero(p.value.rows(), p.value.cols());
    const double t = static_cast<double>(t_ < 1 ? 1 : t_);
    const double c1 = 1.0 - std::pow(spec_.beta1, t), c2 = 1.0 - std::pow(spec_.beta2, t);
    if constexpr (std::is_same_v<S, float>) {
        // The same update in one pass (model_kernels)
        const model_kernels::AdamStep a{S(spec_.beta1), S(1.0 - spec_.beta1), S(spec_.beta2), S(1.0 - spec_.beta2),
                                        S(spec_.lr / c1),  S(c2),                S(spec_.adam_eps)};
        model_kernels::adam_update(p.value.data(), p.m.data(), p.v.data(), p.grad.data(), p.value.size(), a);
        return;
    }
    auto v = p.v.array();
    // m ← β₁ m + (1 − β₁) g ;  v ← β₂ v + (1 − β₂) g²
    m = S(spec_.beta1) * m + S(1.0 - spec_.beta1) * g;
    v = S(spec_.beta2) * v + S(1.0 - spec_.beta2) * g.square();
    // θ ← θ − lr · m̂ / (√v̂ + ε), m̂ = m / (1 − β₁ᵗ), v̂ = v / (1 − β₂ᵗ)
    theta -= S(spec_.lr / c1) * m / ((v / S(c2)).sqrt() + S(spec_.adam_eps));
}

template <class S>
void BasicLayer<S>::update(const Optimizer& opt) {
    for (Param* p : params()) opt.update(*p);
}

// [SECTION] Dense layer ---------------------------------------------------------------------

namespace {
template <class S>
BasicParam<S> make_param(std::string name, Index rows, Index cols) {
    BasicParam<S> p;
    p.name = std::move(name);
    p.value = MatOf<S>::Zero(rows, cols);
    p.grad = MatOf<S>::Zero(rows, cols);
    return p;
}

constexpr bool kTransposed = true, kPlain = false;

// out = op(a) · op(b) in float through model_kernels (AVX2 + FMA where the CPU has it); out is
// resized to op(a)'s rows × op(b)'s columns. accumulate: out += op(a) · op(b) (out already that size).
void product(MatOf<float>& out, const MatOf<float>& a, bool ta, const MatOf<float>& b, bool tb,
             bool accumulate = false) {
    const Index m = ta ? a.cols() : a.rows(), k = ta ? a.rows() : a.cols(), n = tb ? b.rows() : b.cols();
    if (!accumulate) fit_size(out, m, n);
    model_kernels::matmul(out.data(), a.data(), ta, b.data(), tb, m, n, k, accumulate);
}
}  // namespace

template <class S>
BasicDenseLayer<S>::BasicDenseLayer(std::string name, Index in, Index out)
    : W_(make_param<S>(name + ".W", out, in)), c_(make_param<S>(name + ".c", out, 1)) {}

template <class S>
void BasicDenseLayer<S>::forward(const Mat& prev, Mode) {
    // z = x Wᵀ + 1 cᵀ          (B×out = B×in · in×out, bias broadcast over cases); float: the
    // product accumulates onto the bias (one pass over z fewer)
    if constexpr (std::is_same_v<S, float>) {
        assign_resized(out_, c_.value.col(0).transpose().replicate(prev.rows(), 1));
        product(out_, prev, kPlain, W_.value, kTransposed, true);
    } else {
        fit_size(out_, prev.rows(), W_.value.rows());
        out_.noalias() = prev * W_.value.transpose();
        out_.rowwise() += c_.value.col(0).transpose();
    }
}

template <class S>
void BasicDenseLayer<S>::backward(const Mat& prev, const Mat& next_grad) {
    // ∂L/∂W = (∂L/∂z)ᵀ x        (out×in = out×B · B×in)
    if constexpr (std::is_same_v<S, float>)
        product(W_.grad, next_grad, kTransposed, prev, kPlain);
    else
        W_.grad.noalias() = next_grad.transpose() * prev;
    // ∂L/∂c = Σ_cases ∂L/∂z     (out×1)
    c_.grad = next_grad.colwise().sum().transpose();
    // ∂L/∂x = ∂L/∂z · W         (B×in = B×out · out×in); the first layer has no one to pass it to
    if (!needs_input_grad_) return;
    if constexpr (std::is_same_v<S, float>) {
        product(din_, next_grad, kPlain, W_.value, kPlain);
    } else {
        fit_size(din_, next_grad.rows(), W_.value.cols());
        din_.noalias() = next_grad * W_.value;
    }
}

// [SECTION] Activation layer ----------------------------------------------------------------

namespace {
constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;  // 1/√(2π)
}  // namespace

template <class S>
void BasicActivationLayer<S>::forward(const Mat& prev, Mode) {
    fit_size(out_, prev.rows(), prev.cols());
    switch (f_) {
        case Activation::ReLU:
            // y = max(z, 0)
            out_.array() = prev.array().max(S(0));
            break;
        case Activation::Tanh:
            // y = tanh z
            out_.array() = prev.array().tanh();
            break;
        case Activation::GELU:
            // y = z Φ(z) = z · ½ (1 + erf(z/√2))
            if constexpr (std::is_same_v<S, float>) {
                fit_size(cdf_, prev.rows(), prev.cols());
                model_kernels::gelu_forward(out_.data(), cdf_.data(), prev.data(), prev.size());
            } else {
                out_ = prev.unaryExpr([](S z) { return S(0.5) * z * (S(1) + std::erf(z * S(kInvSqrt2))); });
            }
            break;
    }
}

template <class S>
void BasicActivationLayer<S>::backward(const Mat& prev, const Mat& next_grad) {
    if (!needs_input_grad_) return;
    fit_size(din_, prev.rows(), prev.cols());
    switch (f_) {
        case Activation::ReLU: {
            // ∂L/∂z = ∂L/∂y · [z > 0]. A plain loop with both loads unconditional, which the
            // compiler turns into a compare and a mask: Eigen's select() branches per element, and
            // with about half the units active each branch is a coin toss (17% of a training
            // step, measured with perf). Same values, +0.0 where z ≤ 0.
            const S* z = prev.data();
            const S* dy = next_grad.data();
            S* dz = din_.data();
            for (Index i = 0; i < prev.size(); ++i) {
                const S g = dy[i], v = z[i];
                dz[i] = v > S(0) ? g : S(0);
            }
            break;
        }
        case Activation::Tanh:
            // ∂L/∂z = ∂L/∂y · (1 − y²)
            din_.array() = next_grad.array() * (S(1) - out_.array().square());
            break;
        case Activation::GELU:
            // ∂L/∂z = ∂L/∂y · (Φ(z) + z φ(z)),  φ(z) = e^{−z²/2}/√(2π)
            if constexpr (std::is_same_v<S, float>) {
                model_kernels::gelu_backward(din_.data(), next_grad.data(), prev.data(), cdf_.data(), prev.size());
                break;
            }
            din_ = prev.unaryExpr([](S z) {
                        return S(0.5) * (S(1) + std::erf(z * S(kInvSqrt2))) +
                               z * S(kInvSqrt2Pi) * std::exp(S(-0.5) * z * z);
                    })
                       .cwiseProduct(next_grad);
            break;
    }
}

// [SECTION] Norm layer ----------------------------------------------------------------------

namespace {
using Clock = std::chrono::steady_clock;

// The norms work in double (norm.hpp): their inputs are in_scalar(·, a double buffer). Where
// they write a result: double: the layer's own matrix; float: `wide`, which
// round_into then rounds into it.
template <class S>
Eigen::MatrixXd& wide_target(MatOf<S>& own, Eigen::MatrixXd& wide) {
    if constexpr (std::is_same_v<S, double>) {
        return own;
    } else {
        return wide;
    }
}

template <class S>
void round_into(const Eigen::MatrixXd& wide, MatOf<S>& own) {
    if constexpr (!std::is_same_v<S, double>) assign_resized(own, wide.cast<S>());
}

// The float row norm's four per-case statistics, laid end to end in one vector of 4·B.
model_kernels::RowNormStats row_norm_stats(VecOf<float>& all, Index cases) {
    float* p = all.data();
    return {p, p + cases, p + 2 * cases, p + 3 * cases};
}
}  // namespace

template <class S>
BasicNormLayer<S>::BasicNormLayer(std::string name, const NormSpec& spec, Index n, bool learn_gain, bool learn_bias,
                                  double batchnorm_momentum)
    : spec_(spec),
      g_(make_param<S>(name + ".g", n, 1)),
      b_(make_param<S>(name + ".b", n, 1)),
      running_mean_(Vec::Zero(n)),
      running_var_(Vec::Ones(n)),
      momentum_(batchnorm_momentum) {
    g_.value.setOnes();
    g_.trainable = learn_gain;
    b_.trainable = learn_bias;
}

template <class S>
void BasicNormLayer<S>::forward(const Mat& prev, Mode mode) {
    const Clock::time_point t0 = Clock::now();
    if constexpr (std::is_same_v<S, float>) {
        // LayerNorm / RMSNorm on the float kernel: ā and y = ā ⊙ g + b in one pass (B×n)
        row_kernel_ = false;
        if (spec_.norm == Norm::LayerNorm || spec_.norm == Norm::RMSNorm) {
            const Index B = prev.rows();
            fit_size(abar_, B, prev.cols());
            fit_size(out_, B, prev.cols());
            fit_size(row_stats_, 4 * B);
            fit_size(row_work_, 2 * B);
            const model_kernels::RowNormSpec spec{spec_.norm == Norm::LayerNorm, spec_.eps_mode == EpsMode::InsideSqrt,
                                                  spec_.eps};
            row_kernel_ = model_kernels::row_norm_forward(out_.data(), abar_.data(), row_norm_stats(row_stats_, B),
                                                          prev.data(), g_.value.data(), b_.value.data(), B,
                                                          prev.cols(), spec, row_work_.data());
        }
        if (row_kernel_) {
            seconds_ += seconds_since(t0);
            return;
        }
    }
    // a = prev (B×n). ā = norm(a): per case, or per feature over the batch for BatchNorm.
    const Eigen::MatrixXd& a = in_scalar(prev, a64_);
    Eigen::MatrixXd& abar = wide_target(abar_, abar64_);
    if (spec_.norm == Norm::BatchNorm && mode == Mode::Eval) {
        // Inference: ā_j = (a_j − μ̂_j) / D_j with the running μ̂, σ̂² and D as in the forward:
        // √(σ̂² + ε) or σ̂ + ε.
        Vec denom(running_var_.size());
        for (Index j = 0; j < denom.size(); ++j)
            denom(j) = spec_.eps_mode == EpsMode::InsideSqrt ? std::sqrt(running_var_(j) + spec_.eps)
                                                              : std::sqrt(running_var_(j)) + spec_.eps;
        assign_resized(abar, ((a.rowwise() - running_mean_.transpose()).array().rowwise() / denom.transpose().array()).matrix());
    } else {
        norm_forward(spec_, a, cache_, abar, scratch_);
        if (spec_.norm == Norm::BatchNorm && mode == Mode::Train) {
            // r ← (1 − momentum) r + momentum · batch statistic (the first batch sets r).
            const double mo = seen_batch_ ? momentum_ : 1.0;
            for (Index j = 0; j < running_mean_.size(); ++j) {
                const GroupStats& st = cache_.groups[static_cast<std::size_t>(j)];
                running_mean_(j) = (1.0 - mo) * running_mean_(j) + mo * st.mean;
                running_var_(j) = (1.0 - mo) * running_var_(j) + mo * st.sigma0 * st.sigma0;
            }
            seen_batch_ = true;
        }
    }
    round_into(abar, abar_);
    // y = ā ⊙ g + b             (paper eq. 2/4 before f; g, b broadcast over cases)
    fit_size(out_, prev.rows(), prev.cols());
    out_.array() = (abar_.array().rowwise() * g_.value.col(0).transpose().array()).rowwise() +
                   b_.value.col(0).transpose().array();
    seconds_ += seconds_since(t0);
}

template <class S>
void BasicNormLayer<S>::backward(const Mat& prev, const Mat& next_grad) {
    const Clock::time_point t0 = Clock::now();
    // ∂L/∂b = Σ_cases ∂L/∂y               (eq. 10; n×1)
    b_.grad = next_grad.colwise().sum().transpose();
    // ∂L/∂g = Σ_cases ∂L/∂y ⊙ ā           (eq. 9; n×1)
    g_.grad = (next_grad.array() * abar_.array()).colwise().sum().transpose();
    if constexpr (std::is_same_v<S, float>) {
        if (needs_input_grad_ && row_kernel_) {
            // ∂L/∂a through the float row norm, ∂L/∂ā = ∂L/∂y ⊙ g formed on the way (B×n)
            fit_size(din_, next_grad.rows(), next_grad.cols());
            model_kernels::row_norm_backward(din_.data(), next_grad.data(), g_.value.data(), abar_.data(),
                                             row_norm_stats(row_stats_, next_grad.rows()), next_grad.rows(),
                                             next_grad.cols(), spec_.norm == Norm::LayerNorm, row_work_.data());
            seconds_ += seconds_since(t0);
            return;
        }
    }
    if (needs_input_grad_) {
        // ∂L/∂ā = ∂L/∂y ⊙ g                (B×n)
        fit_size(dabar_, next_grad.rows(), next_grad.cols());
        dabar_.array() = next_grad.array().rowwise() * g_.value.col(0).transpose().array();
        // ∂L/∂a = norm_backward(ā's statistics, ∂L/∂ā)   (eq. 8 for RMSNorm; B×n; ā from the
        // forward, which ran on this same prev in Mode::Train)
        Eigen::MatrixXd& da = wide_target(din_, din64_);
        norm_backward(spec_, in_scalar(prev, a64_), cache_, wide_target(abar_, abar64_), in_scalar(dabar_, dabar64_), da,
                      scratch_);
        round_into(da, din_);
    }
    seconds_ += seconds_since(t0);
}

// [SECTION] MLP -----------------------------------------------------------------------------

std::string validate(const MlpConfig& c) {
    if (c.inputs < 1) return "the model needs at least one input feature";
    if (c.classes < 2) return "the model needs at least 2 classes (got " + std::to_string(c.classes) + ")";
    if (c.hidden_layers < kMinHiddenLayers || c.hidden_layers > kMaxHiddenLayers)
        return "hidden layers " + std::to_string(c.hidden_layers) + " is out of range [" +
               std::to_string(kMinHiddenLayers) + ", " + std::to_string(kMaxHiddenLayers) + "]";
    if (c.width < kMinWidth || c.width > kMaxWidth)
        return "width " + std::to_string(c.width) + " is out of range [" + std::to_string(kMinWidth) + ", " +
               std::to_string(kMaxWidth) + "]";
    if (c.norm.norm == Norm::WeightNorm) return "weightnorm is not a norm layer of the MLP";
    if (c.norm.norm == Norm::PRMSNorm && !(c.norm.p > 0.0 && c.norm.p <= 1.0)) return "p must lie in (0, 1]";
    if (!(c.norm.eps >= 0.0) || !std::isfinite(c.norm.eps)) return "eps must be a finite number ≥ 0";
    if (!(c.batchnorm_momentum > 0.0 && c.batchnorm_momentum <= 1.0)) return "batchnorm momentum must lie in (0, 1]";
    return {};
}

template <class S>
BasicMlp<S>::BasicMlp(const MlpConfig& config, std::uint64_t seed) : config_(config) {
    using DenseLayerS = BasicDenseLayer<S>;
    using NormLayerS = BasicNormLayer<S>;
    if (const std::string problem = validate(config); !problem.empty()) throw std::invalid_argument(problem);
    Rng rng(seed);
    const auto init = [&rng](DenseLayerS& d, double gain2) {
        // W_ij ~ N(0, gain²/n_in)
        Mat& W = d.W().value;
        const double sd = std::sqrt(gain2 / static_cast<double>(W.cols()));
        for (Index j = 0; j < W.cols(); ++j)
            for (Index i = 0; i < W.rows(); ++i) W(i, j) = S(sd * rng.normal());
    };
    const double hidden_gain2 = config.activation == Activation::Tanh ? 1.0 : 2.0;
    Index in = config.inputs;
    for (int l = 1; l <= config.hidden_layers; ++l) {
        const std::string name = "hidden" + std::to_string(l);
        auto dense = std::make_unique<DenseLayerS>(name, in, config.width);
        init(*dense, hidden_gain2);
        dense_.push_back(dense.get());
        layers_.push_back(std::move(dense));
        std::unique_ptr<NormLayerS> norm;
        if (config.norm.norm != Norm::None)
            norm = std::make_unique<NormLayerS>(name + ".norm", config.norm, config.width, config.learn_gain,
                                               config.learn_bias, config.batchnorm_momentum);
        if (norm && config.placement == Placement::BeforeActivation) {
            norms_.push_back(norm.get());
            layers_.push_back(std::move(norm));
        }
        layers_.push_back(std::make_unique<BasicActivationLayer<S>>(config.activation));
        if (norm) {
            norms_.push_back(norm.get());
            layers_.push_back(std::move(norm));
        }
        in = config.width;
    }
    auto output = std::make_unique<DenseLayerS>("output", in, config.classes);
    init(*output, 1.0);
    dense_.push_back(output.get());
    layers_.push_back(std::move(output));
    layers_.front()->set_needs_input_grad(false);  // nobody needs ∂L/∂x
}

template <class S>
const typename BasicMlp<S>::Mat& BasicMlp<S>::forward(const Mat& x, Mode mode) {
    const Mat* prev = &x;
    for (const std::unique_ptr<Layer>& layer : layers_) {
        layer->forward(*prev, mode);
        prev = &layer->output();
    }
    return *prev;
}

template <class S>
void BasicMlp<S>::backward(const Mat& x, const Mat& dlogits) {
    // Chain rule from the top: layer l gets ∂L/∂(its output) from layer l+1's input_grad().
    const Mat* next_grad = &dlogits;
    for (std::size_t l = layers_.size(); l-- > 0;) {
        const Mat& prev = l == 0 ? x : layers_[l - 1]->output();
        layers_[l]->backward(prev, *next_grad);
        next_grad = &layers_[l]->input_grad();
    }
}

template <class S>
void BasicMlp<S>::update(Optimizer& opt) {
    opt.begin_step();
    for (const std::unique_ptr<Layer>& layer : layers_) layer->update(opt);
}

template <class S>
std::vector<BasicParam<S>*> BasicMlp<S>::params() {
    std::vector<Param*> out;
    for (const std::unique_ptr<Layer>& layer : layers_)
        for (Param* p : layer->params()) out.push_back(p);
    return out;
}

template <class S>
std::vector<std::string> BasicMlp<S>::dense_layer_names() const {
    std::vector<std::string> names;
    for (const BasicDenseLayer<S>* d : dense_) names.push_back(d->W().name.substr(0, d->W().name.size() - 2));
    return names;
}

template <class S>
void BasicMlp<S>::weight_grad_norms(std::vector<double>& out) const {
    out.resize(dense_.size());
    for (std::size_t l = 0; l < dense_.size(); ++l) out[l] = static_cast<double>(dense_[l]->W().grad.norm());
}

template <class S>
double BasicMlp<S>::norm_seconds() const {
    double s = 0.0;
    for (const BasicNormLayer<S>* n : norms_) s += n->seconds();
    return s;
}

template <class S>
void BasicMlp<S>::reset_norm_seconds() {
    for (BasicNormLayer<S>* n : norms_) n->reset_seconds();
}

// [SECTION] Loss ----------------------------------------------------------------------------

template <class S>
double softmax_cross_entropy(const MatOf<S>& logits, const Labels& y, MatOf<S>& probs, OptionalOut<S> dlogits) {
    const Index B = logits.rows(), K = logits.cols();
    if (y.size() != B) throw std::invalid_argument("softmax_cross_entropy: labels and logits differ in length");
    fit_size(probs, B, K);
    double loss = 0.0;
    for (Index i = 0; i < B; ++i) {
        // log p_ik = z_ik − max_k z − log Σ_k exp(z_ik − max_k z)   (no overflow)
        const S zmax = logits.row(i).maxCoeff();
        probs.row(i) = (logits.row(i).array() - zmax).exp();
        const S sum = probs.row(i).sum();
        probs.row(i) /= sum;
        loss -= logits(i, y(i)) - zmax - std::log(sum);
    }
    loss /= static_cast<double>(B);
    if (dlogits) {
        // ∂L/∂z = (p − onehot(y)) / B
        assign_resized(*dlogits, probs / static_cast<S>(B));
        for (Index i = 0; i < B; ++i) (*dlogits)(i, y(i)) -= S(1.0 / static_cast<double>(B));
    }
    return loss;
}

template <class S>
Index count_correct(const MatOf<S>& logits, const Labels& y) {
    Index correct = 0;
    for (Index i = 0; i < logits.rows(); ++i) {
        Index best = 0;
        logits.row(i).maxCoeff(&best);
        correct += best == y(i) ? 1 : 0;
    }
    return correct;
}

// [SECTION] Instances -----------------------------------------------------------------------

template void Optimizer::update(BasicParam<double>&) const;
template void Optimizer::update(BasicParam<float>&) const;
template class BasicLayer<double>;
template class BasicLayer<float>;
template class BasicDenseLayer<double>;
template class BasicDenseLayer<float>;
template class BasicActivationLayer<double>;
template class BasicActivationLayer<float>;
template class BasicNormLayer<double>;
template class BasicNormLayer<float>;
template class BasicMlp<double>;
template class BasicMlp<float>;
template double softmax_cross_entropy(const MatOf<double>&, const Labels&, MatOf<double>&, MatOf<double>*);
template double softmax_cross_entropy(const MatOf<float>&, const Labels&, MatOf<float>&, MatOf<float>*);
template Index count_correct(const MatOf<double>&, const Labels&);
template Index count_correct(const MatOf<float>&, const Labels&);

}  // namespace normlab
