// NormLab core: the training lab's MLP classifier, built from MiniDNN-style layers.
//
// [SECTION] Choices     — activation, norm placement, forward mode
// [SECTION] Parameters  — a value, its gradient, its optimizer state
// [SECTION] Optimizers  — SGD with momentum, Adam
// [SECTION] Layers      — Dense, Activation, Norm: forward / backward / update, caches as members
// [SECTION] MLP         — hidden blocks Dense → Norm → Act (or Dense → Act → Norm), Dense output
// [SECTION] Loss        — softmax cross-entropy
//
// Shapes (one case per row, as in norm.hpp): input x B×m, hidden activations B×n (n = width),
// logits B×K. A dense layer's W is n_out×n_in (the paper's W: a = x Wᵀ) and its bias c is
// n_out×1.
//
// Every class is a template on its scalar S: double (the names without "Basic": Mlp,
// DenseLayer, …) is the reference, float the fast path (docs/ARCHITECTURE.md, The science:
// precision).
//
// Layer protocol (MiniDNN): forward(prev) caches what backward needs and fills output();
// backward(prev, next_grad) gets the same prev and ∂L/∂output, fills input_grad() and the
// parameters' gradients; update(opt) moves the parameters.
#pragma once

#include "normlab/base/fit_size.hpp"
#include "normlab/norm/fast_norm.hpp"
#include "normlab/norm/norm.hpp"

#include <cstdint>
#include <memory>
#include <type_traits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

using Labels = Eigen::VectorXi;

// A matrix or column of scalars S (Mat and Vec are MatOf<double> and VecOf<double>).
template <class S>
using MatOf = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;
template <class S>
using VecOf = Eigen::Matrix<S, Eigen::Dynamic, 1>;
// An optional output matrix (may be null): a parameter that takes no part in deducing S.
template <class S>
using OptionalOut = std::add_pointer_t<MatOf<S>>;

// m itself when it holds S already, else `buffer` filled with m's values converted to S.
template <class S, class T>
const MatOf<S>& in_scalar(const MatOf<T>& m, MatOf<S>& buffer) {
    if constexpr (std::is_same_v<S, T>) {
        return m;
    } else {
        assign_resized(buffer, m.template cast<S>());
        return buffer;
    }
}

// [SECTION] Precision -----------------------------------------------------------------------

// F64: double, the reference path (bit-identical results everywhere). F32: float, the fast path
// (deterministic on one machine; its products may take the AVX2 path, whose rounding differs).
enum class Precision { F64, F32 };
std::string_view to_string(Precision precision);     // "f64" | "f32"
std::optional<Precision> parse_precision(std::string_view name);

// The path of the float32 products: Auto (the default) takes AVX2 + FMA where this build has
// that copy and the CPU runs it (fast_norm's check), else Scalar (the portable copy). Process-wide,
// for benchmarks and tests that compare the two; model_kernel_path() says which runs now.
void set_model_kernel_path(fast::KernelPath path);
fast::KernelPath model_kernel_path();   // Scalar or Avx2


// [SECTION] Choices -------------------------------------------------------------------------

enum class Activation { ReLU, Tanh, GELU };

// Where a hidden layer's norm sits: Dense → Norm → Act (before the activation, the paper's
// y = f(ā ⊙ g + b)) or Dense → Act → Norm (after it).
enum class Placement { BeforeActivation, AfterActivation };

// Train: BatchNorm normalizes with the batch's statistics and updates its running averages.
// Eval:  BatchNorm uses the running averages (every other norm is per case: the same in both).
enum class Mode { Train, Eval };

std::string_view to_string(Activation activation);   // "relu" | "tanh" | "gelu"
std::optional<Activation> parse_activation(std::string_view name);
std::string_view to_string(Placement placement);     // "before" | "after"
std::optional<Placement> parse_placement(std::string_view name);

// [SECTION] Parameters ----------------------------------------------------------------------

template <class S>
struct BasicParam {
    std::string name;        // "hidden1.W", "hidden1.c", "hidden1.norm.g", "output.W", ...
    MatOf<S> value;          // a matrix, or a column (n×1) for vectors
    MatOf<S> grad;           // ∂L/∂value, same shape (zero until the first backward)
    MatOf<S> m, v;           // optimizer state: momentum / Adam's first and second moments
    bool trainable = true;   // false: update() leaves it alone (a norm's fixed g = 1 or b = 0)
};
using Param = BasicParam<double>;

// [SECTION] Optimizers ----------------------------------------------------------------------

enum class OptimizerKind { SGD, Adam };
std::string_view to_string(OptimizerKind kind);      // "sgd" | "adam"
std::optional<OptimizerKind> parse_optimizer(std::string_view name);

struct OptimizerSpec {
    OptimizerKind kind = OptimizerKind::Adam;
    double lr = 0.01;          // learning rate (the UI shows it on a log scale)
    double momentum = 0.9;     // SGD: v ← μ v + ∂L/∂θ, θ ← θ − lr v (PyTorch's form)
    double beta1 = 0.9;        // Adam
    double beta2 = 0.999;
    double adam_eps = 1e-8;
};

class Optimizer {
public:
    explicit Optimizer(const OptimizerSpec& spec) : spec_(spec) {}
    // Call once per training step, before the update() calls of that step (Adam's t += 1).
    void begin_step() { ++t_; }
    // One parameter's update from its grad; allocates its state on first use. In float, the
    // step's constants (lr/(1 − β₁ᵗ), ...) are computed in double and rounded once.
    template <class S>
    void update(BasicParam<S>& p) const;
    void set_lr(double lr) { spec_.lr = lr; }
    const OptimizerSpec& spec() const { return spec_; }
    long steps() const { return t_; }

private:
    OptimizerSpec spec_;
    long t_ = 0;
};

// [SECTION] Layers --------------------------------------------------------------------------

template <class S>
class BasicLayer {
public:
    using Mat = MatOf<S>;
    using Param = BasicParam<S>;
    virtual ~BasicLayer() = default;
    // prev: B×in. Fills output() (B×out).
    virtual void forward(const Mat& prev, Mode mode) = 0;
    // prev: the forward's input; next_grad: ∂L/∂output (B×out). Fills input_grad() (B×in)
    // unless the layer was told it is first, and its parameters' grad.
    virtual void backward(const Mat& prev, const Mat& next_grad) = 0;
    virtual void update(const Optimizer& opt);
    virtual std::vector<Param*> params() { return {}; }
    virtual std::string_view kind() const = 0;          // "dense", "relu", "layernorm", ...
    const Mat& output() const { return out_; }
    const Mat& input_grad() const { return din_; }
    void set_needs_input_grad(bool needs) { needs_input_grad_ = needs; }

protected:
    Mat out_;                      // B×out
    Mat din_;                      // B×in, ∂L/∂prev
    bool needs_input_grad_ = true;
};

// z = x Wᵀ + 1 cᵀ. float: the three products on model_kernels (AVX2 + FMA where available).
template <class S>
class BasicDenseLayer : public BasicLayer<S> {
public:
    using typename BasicLayer<S>::Mat;
    using typename BasicLayer<S>::Param;
    BasicDenseLayer(std::string name, Eigen::Index in, Eigen::Index out);
    void forward(const Mat& prev, Mode mode) override;
    void backward(const Mat& prev, const Mat& next_grad) override;
    std::vector<Param*> params() override { return {&W_, &c_}; }
    std::string_view kind() const override { return "dense"; }
    Param& W() { return W_; }
    const Param& W() const { return W_; }
    Param& c() { return c_; }

protected:
    using BasicLayer<S>::out_;
    using BasicLayer<S>::din_;
    using BasicLayer<S>::needs_input_grad_;

private:
    Param W_;  // n_out×n_in
    Param c_;  // n_out×1
};

// y = f(z) elementwise. GELU is the exact erf form, x·Φ(x), in forward and backward alike;
// float: model_kernels' vectorized erf, Φ(z) kept from the forward for the backward.
template <class S>
class BasicActivationLayer : public BasicLayer<S> {
public:
    using typename BasicLayer<S>::Mat;
    explicit BasicActivationLayer(Activation f) : f_(f) {}
    void forward(const Mat& prev, Mode mode) override;
    void backward(const Mat& prev, const Mat& next_grad) override;
    std::string_view kind() const override { return to_string(f_); }

protected:
    using BasicLayer<S>::out_;
    using BasicLayer<S>::din_;
    using BasicLayer<S>::needs_input_grad_;

private:
    Activation f_;
    Mat cdf_;   // float GELU: Φ(z) of the last forward, B×out (unused in double)
};

// y = ā ⊙ g + b with ā = norm(a) from core's norm_forward (statistics cached in NormCache) and
// ∂L/∂a from norm_backward. Times its own forward and backward (steady_clock) for the lab's
// "norm vs the rest" split. BatchNorm keeps running averages of each feature's mean and (biased)
// variance, r ← (1 − momentum) r + momentum · batch, for Mode::Eval. float: LayerNorm and RMSNorm
// take model_kernels' float row norm (statistics in float, docs/ARCHITECTURE.md, The science:
// precision) where it accepts the values; otherwise, and for every other norm, a and ∂L/∂ā are
// widened to double for norm_forward / norm_backward (the reference statistics), ā and ∂L/∂a
// rounded back.
template <class S>
class BasicNormLayer : public BasicLayer<S> {
public:
    using typename BasicLayer<S>::Mat;
    using typename BasicLayer<S>::Param;
    BasicNormLayer(std::string name, const NormSpec& spec, Eigen::Index n, bool learn_gain, bool learn_bias,
              double batchnorm_momentum);
    void forward(const Mat& prev, Mode mode) override;
    void backward(const Mat& prev, const Mat& next_grad) override;
    std::vector<Param*> params() override { return {&g_, &b_}; }
    std::string_view kind() const override { return to_string(spec_.norm); }
    const NormSpec& spec() const { return spec_; }
    const Mat& normalized() const { return abar_; }       // ā of the last forward, B×n
    const Vec& running_mean() const { return running_mean_; }
    const Vec& running_var() const { return running_var_; }
    double seconds() const { return seconds_; }           // forward + backward since the last reset
    void reset_seconds() { seconds_ = 0.0; }

protected:
    using BasicLayer<S>::out_;
    using BasicLayer<S>::din_;
    using BasicLayer<S>::needs_input_grad_;

private:
    NormSpec spec_;
    Param g_;            // n×1 gain
    Param b_;            // n×1 bias
    NormCache cache_;    // statistics of the last Train forward (per case, or per feature for BatchNorm)
    Mat abar_;           // B×n
    Mat dabar_;          // B×n, ∂L/∂ā
    Eigen::MatrixXd a64_, abar64_, dabar64_, din64_;   // float: the same in double (unused in double)
    // float, LayerNorm / RMSNorm: the float kernel's per-case statistics (mean, its correction,
    // 1/D, the backward's projection coefficient; B each) and 2·B of scratch, and whether the last
    // forward took that kernel (else the double path's cache_ holds the statistics)
    VecOf<S> row_stats_, row_work_;
    bool row_kernel_ = false;
    NormScratch scratch_;  // norm_forward / norm_backward's per-case vectors, kept between steps
    Vec running_mean_;   // n (BatchNorm)
    Vec running_var_;    // n (BatchNorm)
    double momentum_;
    bool seen_batch_ = false;
    double seconds_ = 0.0;
};

// [SECTION] MLP -----------------------------------------------------------------------------

struct MlpConfig {
    Eigen::Index inputs = 2;                  // m
    int classes = 2;                          // K ≥ 2
    int hidden_layers = 2;                    // 1..6
    Eigen::Index width = 32;                  // n, 2..256
    Activation activation = Activation::ReLU;
    NormSpec norm{Norm::None};                // none, layernorm, rmsnorm, prmsnorm, l2norm, batchnorm
    Placement placement = Placement::BeforeActivation;
    bool learn_gain = true;                   // the norm's g is trained (else fixed at 1)
    bool learn_bias = true;                   // the norm's b is trained (else fixed at 0)
    double batchnorm_momentum = 0.1;
};

inline constexpr int kMinHiddenLayers = 1, kMaxHiddenLayers = 6;
inline constexpr Eigen::Index kMinWidth = 2, kMaxWidth = 256;

// Empty when the configuration is usable, else one sentence saying what is wrong
// (e.g. "width 300 is out of range [2, 256]", "weightnorm is not a norm layer of the MLP").
std::string validate(const MlpConfig& config);

template <class S>
class BasicMlp {
public:
    using Mat = MatOf<S>;
    using Param = BasicParam<S>;
    using Layer = BasicLayer<S>;
    // Weights: W ~ N(0, s²/n_in) with s² = 2 before ReLU and GELU (He), 1 otherwise (and for the
    // output layer); biases c = 0; norm g = 1, b = 0. The seed drives an Rng (random.hpp).
    // Throws std::invalid_argument when validate(config) is not empty.
    // float: the same draws, each rounded to float (the f64 model's weights, rounded).
    BasicMlp(const MlpConfig& config, std::uint64_t seed);

    // x: B×m → logits B×K (a reference to the last layer's output).
    const Mat& forward(const Mat& x, Mode mode);
    // x: the forward's input; dlogits: ∂L/∂logits (B×K). Fills every parameter's grad.
    void backward(const Mat& x, const Mat& dlogits);
    // One optimizer step for every trainable parameter (calls opt.begin_step() first).
    void update(Optimizer& opt);

    std::vector<Param*> params();
    const MlpConfig& config() const { return config_; }
    const std::vector<std::unique_ptr<Layer>>& layers() const { return layers_; }

    // The dense layers ("hidden1", ..., "output") and ‖∂L/∂W_l‖_F of each after backward().
    std::vector<std::string> dense_layer_names() const;
    void weight_grad_norms(std::vector<double>& out) const;
    // Seconds spent inside NormLayer forward/backward since the last reset.
    double norm_seconds() const;
    void reset_norm_seconds();

private:
    MlpConfig config_;
    std::vector<std::unique_ptr<Layer>> layers_;
    std::vector<BasicDenseLayer<S>*> dense_;
    std::vector<BasicNormLayer<S>*> norms_;
};

using Layer = BasicLayer<double>;
using DenseLayer = BasicDenseLayer<double>;
using ActivationLayer = BasicActivationLayer<double>;
using NormLayer = BasicNormLayer<double>;
using Mlp = BasicMlp<double>;

// [SECTION] Loss ----------------------------------------------------------------------------

// p = softmax(z) per row; L = −(1/B) Σ_i log p_{i, y_i}; when dlogits is given,
// ∂L/∂z = (p − onehot(y)) / B. logits: B×K, y: B labels in [0, K). Fills probs (B×K). The sum
// over cases is taken in double for either S.
template <class S>
double softmax_cross_entropy(const MatOf<S>& logits, const Labels& y, MatOf<S>& probs, OptionalOut<S> dlogits);

// Number of rows whose largest logit is at column y_i (the first maximum on ties).
template <class S>
Eigen::Index count_correct(const MatOf<S>& logits, const Labels& y);

}  // namespace normlab
