// NormLab core: the depth lab's transformer (see transformer.hpp).
//
// [SECTION] Names and validation
// [SECTION] Attention: forward
// [SECTION] Attention: backward
// [SECTION] Block: forward
// [SECTION] Block: backward
// [SECTION] Transformer: construction and initialization
// [SECTION] Transformer: forward / backward / update
// [SECTION] Loss
// [SECTION] Sampling
// [SECTION] Instances
//
// Shapes: B cases, T positions, d width, H heads of d_h = d/H, V vocabulary; activations are
// (B·T)×d with row b·T + t. Every layer uses mlp.hpp's Train mode (no norm here uses batch
// statistics, so Train and Eval agree).
#include "normlab/models/transformer.hpp"

#include "models/model_kernels.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <stdexcept>

namespace normlab {

using Eigen::Index;

// [SECTION] Names and validation ------------------------------------------------------------

std::string_view to_string(NormPlacement placement) {
    switch (placement) {
        case NormPlacement::PostLN: return "postln";
        case NormPlacement::PreLN: return "preln";
        case NormPlacement::NormFormer: return "normformer";
    }
    return "unknown";
}

std::string_view display_name(NormPlacement placement) {
    switch (placement) {
        case NormPlacement::PostLN: return "Post-LN";
        case NormPlacement::PreLN: return "Pre-LN";
        case NormPlacement::NormFormer: return "NormFormer";
    }
    return "unknown";
}

std::optional<NormPlacement> parse_norm_placement(std::string_view name) {
    for (NormPlacement p : kAllNormPlacements)
        if (to_string(p) == name) return p;
    return std::nullopt;
}

std::string_view to_string(TransformerInit init) {
    switch (init) {
        case TransformerInit::Uniform: return "uniform";
        case TransformerInit::Xavier: return "xavier";
    }
    return "unknown";
}

std::string_view display_name(TransformerInit init) {
    switch (init) {
        case TransformerInit::Uniform: return "uniform ±1/√n";
        case TransformerInit::Xavier: return "Xavier";
    }
    return "unknown";
}

std::optional<TransformerInit> parse_transformer_init(std::string_view name) {
    for (TransformerInit i : kAllTransformerInits)
        if (to_string(i) == name) return i;
    return std::nullopt;
}

double init_limit(TransformerInit init, Index n_in, Index n_out) {
    switch (init) {
        case TransformerInit::Uniform: return 1.0 / std::sqrt(static_cast<double>(n_in));
        case TransformerInit::Xavier: return std::sqrt(6.0 / static_cast<double>(n_in + n_out));
    }
    throw std::invalid_argument("unknown transformer init");
}

bool operator==(const NormFormerParts& a, const NormFormerParts& b) {
    return a.attn_norm == b.attn_norm && a.ffn_norm == b.ffn_norm && a.head_scale == b.head_scale;
}

namespace {
constexpr std::array<std::pair<std::string_view, bool NormFormerParts::*>, 3> kPartNames{
    {{"attn_norm", &NormFormerParts::attn_norm},
     {"ffn_norm", &NormFormerParts::ffn_norm},
     {"head_scale", &NormFormerParts::head_scale}}};
}  // namespace

std::string to_string(const NormFormerParts& parts) {
    std::string out;
    for (const auto& [name, member] : kPartNames)
        if (parts.*member) out += (out.empty() ? "" : ",") + std::string(name);
    return out.empty() ? "none" : out;
}

std::optional<NormFormerParts> parse_normformer_parts(std::string_view list) {
    if (list == "all") return NormFormerParts{};
    NormFormerParts parts{false, false, false};
    if (list == "none") return parts;
    for (std::size_t start = 0; start <= list.size();) {
        const std::size_t end = std::min(list.find(',', start), list.size());
        const std::string_view name = list.substr(start, end - start);
        const auto* it = std::find_if(kPartNames.begin(), kPartNames.end(), [&](const auto& p) { return p.first == name; });
        if (it == kPartNames.end() || parts.*(it->second)) return std::nullopt;   // unknown, empty or repeated
        parts.*(it->second) = true;
        start = end + 1;
    }
    return parts;
}

std::string validate(const TransformerConfig& c) {
    const auto range = [](const std::string& what, long long v, long long lo, long long hi) {
        return what + " " + std::to_string(v) + " is out of range [" + std::to_string(lo) + ", " +
               std::to_string(hi) + "]";
    };
    if (c.vocab < 2) return "the vocabulary needs at least 2 symbols (got " + std::to_string(c.vocab) + ")";
    if (c.context < 1) return "the context needs at least 1 position (got " + std::to_string(c.context) + ")";
    if (c.layers < kMinLayers || c.layers > kMaxLayers) return range("layers", c.layers, kMinLayers, kMaxLayers);
    if (c.width < kMinTransformerWidth || c.width > kMaxTransformerWidth)
        return range("width", c.width, kMinTransformerWidth, kMaxTransformerWidth);
    if (c.heads < 1 || c.heads > c.width) return range("heads", c.heads, 1, c.width);
    if (c.width % c.heads != 0)
        return "width " + std::to_string(c.width) + " is not a multiple of " + std::to_string(c.heads) + " heads";
    if (c.norm.norm != Norm::LayerNorm && c.norm.norm != Norm::RMSNorm)
        return "the transformer's norm must be layernorm or rmsnorm (got " + std::string(to_string(c.norm.norm)) + ")";
    if (!(c.norm.eps >= 0.0) || !std::isfinite(c.norm.eps)) return "eps must be a finite number ≥ 0";
    if (c.residual_scale && c.placement != NormPlacement::NormFormer)
        return "the residual scale λ is part of NormFormer only";
    if (c.normformer != NormFormerParts{} && c.placement != NormPlacement::NormFormer)
        return "NormFormer's parts (" + to_string(c.normformer) + ") apply to NormFormer only";
    return {};
}

namespace {

template <class S>
BasicParam<S> make_param(std::string name, Index rows, Index cols, double fill) {
    BasicParam<S> p;
    p.name = std::move(name);
    p.value = MatOf<S>::Constant(rows, cols, S(fill));
    p.grad = MatOf<S>::Zero(rows, cols);
    return p;
}

template <class S>
std::unique_ptr<BasicNormLayer<S>> make_norm(const std::string& name, const NormSpec& spec, Index n) {
    return std::make_unique<BasicNormLayer<S>>(name, spec, n, /*learn_gain=*/true, /*learn_bias=*/true, 0.1);
}

template <class S>
void append(std::vector<BasicParam<S>*>& out, const std::vector<BasicParam<S>*>& more) {
    out.insert(out.end(), more.begin(), more.end());
}

}  // namespace

// [SECTION] Attention: forward --------------------------------------------------------------

template <class S>
BasicCausalSelfAttention<S>::BasicCausalSelfAttention(const std::string& name, Index width, int heads, bool head_scale)
    : width_(width),
      head_width_(width / heads),
      heads_(heads),
      qkv_(name + ".qkv", width, 3 * width),
      proj_(name + ".proj", width, width) {
    if (head_scale) gamma_ = make_param<S>(name + ".head_scale", heads, 1, 1.0);
}

template <class S>
std::vector<BasicParam<S>*> BasicCausalSelfAttention<S>::params() {
    std::vector<Param*> out = qkv_.params();
    if (gamma_) out.push_back(&*gamma_);
    append(out, proj_.params());
    return out;
}

template <class S>
MatOf<S> BasicCausalSelfAttention<S>::weights(Index b, int head) const {
    if constexpr (std::is_same_v<S, float>) {
        Mat P(time_, time_);
        model_kernels::attention_weights(P.data(), cache_.data(), {batch_, time_, width_, heads_}, b, head);
        return P;
    } else {
        return probs_[static_cast<std::size_t>(b * heads_ + head)];
    }
}

template <class S>
void BasicCausalSelfAttention<S>::forward(const Mat& x, Index batch, Index time) {
    batch_ = batch;
    time_ = time;
    const Index B = batch, T = time, d = width_, dh = head_width_;
    // qkv = x W_qkvᵀ + c      ((B·T)×3d)
    qkv_.forward(x, Mode::Train);
    const Mat& qkv = qkv_.output();
    fit_size(heads_out_, B * T, d);
    if constexpr (std::is_same_v<S, float>) {
        // Every case and head on the float kernel (model_kernels.hpp): P and Concat(head_i)
        const model_kernels::AttentionShape shape{B, T, d, heads_};
        fit_size(cache_, shape.cache_size());
        fit_size(work_, shape.work_size());
        model_kernels::attention_forward(heads_out_.data(), cache_.data(), qkv.data(), shape, work_.data());
    } else {
        const S scale = S(1.0 / std::sqrt(static_cast<double>(dh)));
        probs_.resize(static_cast<std::size_t>(B * heads_));
        for (Index b = 0; b < B; ++b) {
            for (int i = 0; i < heads_; ++i) {
                const auto Q = qkv.block(b * T, i * dh, T, dh);           // T×d_h
                const auto K = qkv.block(b * T, d + i * dh, T, dh);       // T×d_h
                const auto V = qkv.block(b * T, 2 * d + i * dh, T, dh);   // T×d_h
                Mat& P = probs_[static_cast<std::size_t>(b * heads_ + i)];
                // S = Q Kᵀ / √d_h      (T×T: query t, key j)
                fit_size(P, T, T);
                P.noalias() = Q * K.transpose();
                P *= scale;
                // P_tj = exp(S_tj − max_{k≤t} S_tk) / Σ_{k≤t} exp(S_tk − max)   for j ≤ t; 0 for j > t (causal)
                for (Index t = 0; t < T; ++t) {
                    auto row = P.row(t).head(t + 1);
                    row.array() = (row.array() - row.maxCoeff()).exp();
                    row /= row.sum();
                    P.row(t).tail(T - t - 1).setZero();
                }
                // head_i = P V        (T×d_h)
                heads_out_.block(b * T, i * dh, T, dh).noalias() = P * V;
            }
        }
    }
    if (gamma_) {
        // Concat(γ_i head_i)  (NormFormer's HeadScale, before the output projection)
        assign_resized(scaled_, heads_out_);
        for (int i = 0; i < heads_; ++i) scaled_.middleCols(i * dh, dh) *= gamma_->value(i, 0);
    }
    // out = Concat(...) W_Oᵀ + c_O      ((B·T)×d)
    proj_.forward(gamma_ ? scaled_ : heads_out_, Mode::Train);
}

// [SECTION] Attention: backward -------------------------------------------------------------

template <class S>
void BasicCausalSelfAttention<S>::backward(const Mat& x, const Mat& dout) {
    const Index B = batch_, T = time_, d = width_, dh = head_width_;
    // ∂L/∂W_O, ∂L/∂c_O and ∂L/∂(projection input) = ∂L/∂out · W_O
    proj_.backward(gamma_ ? scaled_ : heads_out_, dout);
    const Mat* dY = &proj_.input_grad();
    if (gamma_) {
        const Mat& dscaled = proj_.input_grad();
        assign_resized(dheads_, dscaled);
        for (int i = 0; i < heads_; ++i) {
            // ∂L/∂γ_i = Σ ∂L/∂(γ_i head_i) ⊙ head_i ;  ∂L/∂head_i = γ_i ∂L/∂(γ_i head_i)
            gamma_->grad(i, 0) = (dscaled.middleCols(i * dh, dh).array() * heads_out_.middleCols(i * dh, dh).array()).sum();
            dheads_.middleCols(i * dh, dh) *= gamma_->value(i, 0);
        }
        dY = &dheads_;
    }
    const Mat& qkv = qkv_.output();
    fit_size(dqkv_, B * T, 3 * d);
    if constexpr (std::is_same_v<S, float>) {
        // Every case and head on the float kernel, from the forward's cache
        model_kernels::attention_backward(dqkv_.data(), dY->data(), cache_.data(),
                                          model_kernels::AttentionShape{B, T, d, heads_}, work_.data());
    } else {
        const S scale = S(1.0 / std::sqrt(static_cast<double>(dh)));
        Mat dP, dS;
        VecOf<S> rowdot;
        for (Index b = 0; b < B; ++b) {
            for (int i = 0; i < heads_; ++i) {
                const auto Q = qkv.block(b * T, i * dh, T, dh);
                const auto K = qkv.block(b * T, d + i * dh, T, dh);
                const auto V = qkv.block(b * T, 2 * d + i * dh, T, dh);
                const auto dYi = dY->block(b * T, i * dh, T, dh);
                const Mat& P = probs_[static_cast<std::size_t>(b * heads_ + i)];
                // ∂L/∂P = ∂L/∂head_i Vᵀ          (T×T)
                dP.noalias() = dYi * V.transpose();
                // ∂L/∂V = Pᵀ ∂L/∂head_i          (T×d_h)
                dqkv_.block(b * T, 2 * d + i * dh, T, dh).noalias() = P.transpose() * dYi;
                // softmax rows: ∂L/∂S_tj = P_tj (∂L/∂P_tj − Σ_k P_tk ∂L/∂P_tk)   (0 where masked: P_tj = 0)
                rowdot = (P.array() * dP.array()).rowwise().sum();
                dS = P.array() * (dP.colwise() - rowdot).array();
                // ∂L/∂Q = ∂L/∂S K / √d_h ;  ∂L/∂K = ∂L/∂Sᵀ Q / √d_h
                dS *= scale;
                dqkv_.block(b * T, i * dh, T, dh).noalias() = dS * K;
                dqkv_.block(b * T, d + i * dh, T, dh).noalias() = dS.transpose() * Q;
            }
        }
    }
    // ∂L/∂W_qkv, ∂L/∂c and ∂L/∂x = ∂L/∂qkv · W_qkv
    qkv_.backward(x, dqkv_);
}

// [SECTION] Block: forward ------------------------------------------------------------------

template <class S>
BasicTransformerBlock<S>::BasicTransformerBlock(const std::string& name, const TransformerConfig& c)
    : placement_(c.placement),
      attn_(name + ".attn", c.width, c.heads, c.placement == NormPlacement::NormFormer && c.normformer.head_scale),
      ln1_(name + ".ln1", c.norm, c.width, true, true, 0.1),
      ln2_(name + ".ln2", c.norm, c.width, true, true, 0.1),
      fc1_(name + ".ffn.fc1", c.width, kFfnMultiple * c.width),
      gelu_(Activation::GELU),
      fc2_(name + ".ffn.fc2", kFfnMultiple * c.width, c.width) {
    if (c.placement == NormPlacement::NormFormer) {
        if (c.normformer.attn_norm) attn_norm_ = make_norm<S>(name + ".attn_norm", c.norm, c.width);
        if (c.normformer.ffn_norm) ffn_norm_ = make_norm<S>(name + ".ffn.norm", c.norm, kFfnMultiple * c.width);
        if (c.residual_scale) lambda_ = make_param<S>(name + ".resid_scale", c.width, 1, 1.0);
    }
}

template <class S>
std::vector<BasicParam<S>*> BasicTransformerBlock<S>::params() {
    std::vector<Param*> out = ln1_.params();
    append(out, attn_.params());
    if (attn_norm_) append(out, attn_norm_->params());
    append(out, ln2_.params());
    append(out, fc1_.params());
    if (ffn_norm_) append(out, ffn_norm_->params());
    append(out, fc2_.params());
    if (lambda_) out.push_back(&*lambda_);
    return out;
}

template <class S>
void BasicTransformerBlock<S>::ffn_forward(const Mat& in) {
    // u = in W₁ᵀ + c₁ ((B·T)×4d);  a = GELU(u);  NormFormer: a ← LN_f(a);  f = a W₂ᵀ + c₂ ((B·T)×d)
    fc1_.forward(in, Mode::Train);
    gelu_.forward(fc1_.output(), Mode::Train);
    const Mat* a = &gelu_.output();
    if (ffn_norm_) {
        ffn_norm_->forward(*a, Mode::Train);
        a = &ffn_norm_->output();
    }
    fc2_.forward(*a, Mode::Train);
}

template <class S>
void BasicTransformerBlock<S>::forward(const Mat& x, Index batch, Index time) {
    if (placement_ == NormPlacement::PostLN) {
        // s₁ = x + Attn(x);  h = LN₁(s₁)
        attn_.forward(x, batch, time);
        assign_resized(sum1_, x + attn_.output());
        ln1_.forward(sum1_, Mode::Train);
        // s₂ = h + FFN(h);  out = LN₂(s₂)
        ffn_forward(ln1_.output());
        assign_resized(sum2_, ln1_.output() + fc2_.output());
        ln2_.forward(sum2_, Mode::Train);
        out_ = &ln2_.output();
        return;
    }
    // h = x + [LNₐ](Attn(LN₁(x)))
    ln1_.forward(x, Mode::Train);
    attn_.forward(ln1_.output(), batch, time);
    const Mat* a = &attn_.output();
    if (attn_norm_) {
        attn_norm_->forward(*a, Mode::Train);
        a = &attn_norm_->output();
    }
    assign_resized(h_, x + *a);
    // out = [λ ⊙] h + FFN(LN₂(h))
    ln2_.forward(h_, Mode::Train);
    ffn_forward(ln2_.output());
    if (lambda_)
        assign_resized(res_out_, (h_.array().rowwise() * lambda_->value.col(0).transpose().array()).matrix() + fc2_.output());
    else
        assign_resized(res_out_, h_ + fc2_.output());
    out_ = &res_out_;
}

// [SECTION] Block: backward -----------------------------------------------------------------

template <class S>
const MatOf<S>& BasicTransformerBlock<S>::ffn_backward(const Mat& in, const Mat& dout) {
    // ∂L/∂W₂ = ∂L/∂fᵀ a;  ∂L/∂a = ∂L/∂f W₂
    fc2_.backward(ffn_norm_ ? ffn_norm_->output() : gelu_.output(), dout);
    const Mat* da = &fc2_.input_grad();
    if (ffn_norm_) {
        // ∂L/∂GELU(u) through LN_f (norm_backward)
        ffn_norm_->backward(gelu_.output(), *da);
        da = &ffn_norm_->input_grad();
    }
    // ∂L/∂u = ∂L/∂a ⊙ GELU'(u);  ∂L/∂W₁ = ∂L/∂uᵀ in;  ∂L/∂in = ∂L/∂u W₁
    gelu_.backward(fc1_.output(), *da);
    fc1_.backward(in, gelu_.input_grad());
    return fc1_.input_grad();
}

template <class S>
void BasicTransformerBlock<S>::backward(const Mat& x, const Mat& dout) {
    if (placement_ == NormPlacement::PostLN) {
        // ∂L/∂s₂ = LN₂'ᵀ ∂L/∂out
        ln2_.backward(sum2_, dout);
        const Mat& ds2 = ln2_.input_grad();
        // ∂L/∂h = ∂L/∂s₂ (the residual) + FFN'ᵀ ∂L/∂s₂
        assign_resized(dh_, ds2);
        dh_ += ffn_backward(ln1_.output(), ds2);
        // ∂L/∂s₁ = LN₁'ᵀ ∂L/∂h;  ∂L/∂x = ∂L/∂s₁ + Attn'ᵀ ∂L/∂s₁
        ln1_.backward(sum1_, dh_);
        const Mat& ds1 = ln1_.input_grad();
        attn_.backward(x, ds1);
        assign_resized(din_, ds1 + attn_.input_grad());
        return;
    }
    // out = λ ⊙ h + f:  ∂L/∂λ = Σ_rows ∂L/∂out ⊙ h;  ∂L/∂h = λ ⊙ ∂L/∂out (+ the FFN's path below)
    if (lambda_) {
        lambda_->grad = (dout.array() * h_.array()).colwise().sum().transpose();
        assign_resized(dh_, (dout.array().rowwise() * lambda_->value.col(0).transpose().array()).matrix());
    } else {
        assign_resized(dh_, dout);
    }
    // ∂L/∂h += LN₂'ᵀ FFN'ᵀ ∂L/∂out
    const Mat& dn2 = ffn_backward(ln2_.output(), dout);
    ln2_.backward(h_, dn2);
    dh_ += ln2_.input_grad();
    // h = x + a: ∂L/∂a = ∂L/∂h, then back through [LNₐ], Attn and LN₁; ∂L/∂x = ∂L/∂h + that
    const Mat* da = &dh_;
    if (attn_norm_) {
        attn_norm_->backward(attn_.output(), dh_);
        da = &attn_norm_->input_grad();
    }
    attn_.backward(ln1_.output(), *da);
    ln1_.backward(x, attn_.input_grad());
    assign_resized(din_, dh_ + ln1_.input_grad());
}

// [SECTION] Transformer: construction and initialization ------------------------------------

namespace {
const TransformerConfig& checked(const TransformerConfig& config) {
    if (const std::string problem = validate(config); !problem.empty()) throw std::invalid_argument(problem);
    return config;
}
}  // namespace

template <class S>
BasicTransformer<S>::BasicTransformer(const TransformerConfig& config, std::uint64_t seed)
    : config_(checked(config)), head_("head", config.width, config.vocab) {
    wte_ = make_param<S>("wte", config.vocab, config.width, 0.0);
    wpe_ = make_param<S>("wpe", config.context, config.width, 0.0);
    for (int l = 1; l <= config.layers; ++l)
        blocks_.push_back(std::make_unique<BasicTransformerBlock<S>>("block" + std::to_string(l), config));
    if (config.placement != NormPlacement::PostLN) final_norm_ = make_norm<S>("final_norm", config.norm, config.width);

    Rng rng(seed);
    for (Param* p : params()) {
        if (p == &wte_ || p == &wpe_) {
            // N(0, 1), entry by entry in column-major order
            for (Index i = 0; i < p->value.size(); ++i) p->value.data()[i] = S(rng.normal());
        } else if (p->name.size() > 2 && p->name.compare(p->name.size() - 2, 2, ".W") == 0) {
            // W is n_out×n_in: Uniform U(−1/√n_in, 1/√n_in), Xavier U(±√(6/(n_in + n_out)))
            const double a = init_limit(config.init, p->value.cols(), p->value.rows());
            for (Index i = 0; i < p->value.size(); ++i) p->value.data()[i] = S(rng.uniform(-a, a));
        }
    }
}

template <class S>
std::vector<BasicParam<S>*> BasicTransformer<S>::params() {
    std::vector<Param*> out = {&wte_, &wpe_};
    for (const auto& b : blocks_) append(out, b->params());
    if (final_norm_) append(out, final_norm_->params());
    append(out, head_.params());
    return out;
}

template <class S>
Index BasicTransformer<S>::parameter_count() {
    Index n = 0;
    for (const Param* p : params()) n += p->value.size();
    return n;
}

// [SECTION] Transformer: forward / backward / update ----------------------------------------

template <class S>
const MatOf<S>& BasicTransformer<S>::forward(const Tokens& tokens) {
    const Index B = tokens.rows(), T = tokens.cols(), d = config_.width;
    if (B < 1 || T < 1) throw std::invalid_argument("the transformer needs at least one token");
    if (T > config_.context)
        throw std::invalid_argument("sequence of " + std::to_string(T) + " tokens exceeds the context of " +
                                    std::to_string(config_.context));
    if (tokens.minCoeff() < 0 || tokens.maxCoeff() >= config_.vocab)
        throw std::invalid_argument("token id out of range [0, " + std::to_string(config_.vocab) + ")");
    assign_resized(tokens_, tokens);
    // x₀[b·T + t] = wte[token_bt] + wpe[t]        ((B·T)×d)
    fit_size(x0_, B * T, d);
    for (Index b = 0; b < B; ++b)
        for (Index t = 0; t < T; ++t) x0_.row(b * T + t) = wte_.value.row(tokens(b, t)) + wpe_.value.row(t);
    const Mat* x = &x0_;
    for (const auto& block : blocks_) {
        block->forward(*x, B, T);
        x = &block->output();
    }
    if (final_norm_) {
        final_norm_->forward(*x, Mode::Train);
        x = &final_norm_->output();
    }
    // logits = x W_headᵀ + c        ((B·T)×V)
    head_.forward(*x, Mode::Train);
    return head_.output();
}

template <class S>
void BasicTransformer<S>::backward(const Mat& dlogits) {
    const Index B = tokens_.rows(), T = tokens_.cols();
    if (dlogits.rows() != B * T || dlogits.cols() != config_.vocab)
        throw std::invalid_argument("dlogits does not match the last forward's logits");
    const Mat& top = blocks_.back()->output();
    // ∂L/∂W_head, ∂L/∂c_head and ∂L/∂x_final = ∂L/∂logits · W_head
    head_.backward(final_norm_ ? final_norm_->output() : top, dlogits);
    const Mat* dx = &head_.input_grad();
    if (final_norm_) {
        final_norm_->backward(top, *dx);
        dx = &final_norm_->input_grad();
    }
    for (std::size_t l = blocks_.size(); l-- > 0;) {
        blocks_[l]->backward(l == 0 ? x0_ : blocks_[l - 1]->output(), *dx);
        dx = &blocks_[l]->input_grad();
    }
    // ∂L/∂wte[v] = Σ_{(b,t): token v} ∂L/∂x₀[b·T + t];  ∂L/∂wpe[t] = Σ_b ∂L/∂x₀[b·T + t]
    wte_.grad.setZero();
    wpe_.grad.setZero();
    for (Index b = 0; b < B; ++b)
        for (Index t = 0; t < T; ++t) {
            wte_.grad.row(tokens_(b, t)) += dx->row(b * T + t);
            wpe_.grad.row(t) += dx->row(b * T + t);
        }
}

template <class S>
void BasicTransformer<S>::update(Optimizer& opt) {
    opt.begin_step();
    for (Param* p : params()) opt.update(*p);
}

template <class S>
void BasicTransformer<S>::ffn_output_grad_means(std::vector<double>& out) const {
    out.resize(blocks_.size());
    // mean_ij |∂L/∂W₂|_ij per layer
    for (std::size_t l = 0; l < blocks_.size(); ++l) out[l] = static_cast<double>(blocks_[l]->ffn_output().W().grad.cwiseAbs().mean());
}

// [SECTION] Loss ----------------------------------------------------------------------------

template <class S>
SequenceLoss sequence_cross_entropy(const MatOf<S>& logits, const Tokens& targets, OptionalOut<S> dlogits) {
    const Index B = targets.rows(), T = targets.cols(), V = logits.cols();
    if (logits.rows() != B * T) throw std::invalid_argument("sequence_cross_entropy: logits and targets differ in shape");
    std::vector<Index> rows;
    for (Index b = 0; b < B; ++b)
        for (Index t = 0; t < T; ++t) {
            const int y = targets(b, t);
            if (y >= V) throw std::invalid_argument("sequence_cross_entropy: target out of range");
            if (y >= 0) rows.push_back(b * T + t);
        }
    if (rows.empty()) throw std::invalid_argument("sequence_cross_entropy: no position is scored");
    const Index scored = static_cast<Index>(rows.size());
    // Gather the scored rows: z (S×V), y (S), S = scored
    MatOf<S> z(scored, V);
    Labels y(scored);
    for (Index s = 0; s < scored; ++s) {
        const Index r = rows[static_cast<std::size_t>(s)];
        z.row(s) = logits.row(r);
        y(s) = targets(r / T, r % T);
    }
    SequenceLoss out;
    MatOf<S> probs, dz;
    out.loss = softmax_cross_entropy(z, y, probs, dlogits ? &dz : nullptr);
    out.scored = scored;
    out.correct = count_correct(z, y);
    if (dlogits) {
        // ∂L/∂logits: (p − onehot(y))/S on the scored rows, 0 elsewhere
        fit_size(*dlogits, B * T, V);
        dlogits->setZero();
        for (Index s = 0; s < scored; ++s) dlogits->row(rows[static_cast<std::size_t>(s)]) = dz.row(s);
    }
    return out;
}

// [SECTION] Sampling ------------------------------------------------------------------------

template <class S>
std::vector<int> sample_tokens(BasicTransformer<S>& model, const std::vector<int>& prompt, int count,
                               double temperature, Rng& rng) {
    if (prompt.empty()) throw std::invalid_argument("sampling needs a prompt of at least one token");
    if (!(temperature >= 0.0) || !std::isfinite(temperature))
        throw std::invalid_argument("the temperature must be a finite number ≥ 0");
    const Index context = model.config().context;
    std::vector<int> seq = prompt, out;
    Vec p;
    for (int k = 0; k < count; ++k) {
        const Index n = static_cast<Index>(seq.size());
        const Index start = n > context ? n - context : 0;
        Tokens window(1, n - start);
        for (Index t = start; t < n; ++t) window(0, t - start) = seq[static_cast<std::size_t>(t)];
        const MatOf<S>& logits = model.forward(window);
        const auto last = logits.row(window.cols() - 1);
        Index next = 0;
        if (temperature == 0.0) {
            last.maxCoeff(&next);
        } else {
            // p_v ∝ exp((z_v − max z) / temperature); draw u ∈ [0, Σp) and walk the cumulative sum
            p = ((last.template cast<double>().array() - static_cast<double>(last.maxCoeff())) / temperature)
                    .exp()
                    .transpose();
            const double u = rng.uniform() * p.sum();
            double acc = 0.0;
            next = p.size() - 1;
            for (Index v = 0; v < p.size(); ++v) {
                acc += p(v);
                if (u < acc) {
                    next = v;
                    break;
                }
            }
        }
        seq.push_back(static_cast<int>(next));
        out.push_back(static_cast<int>(next));
    }
    return out;
}

template <class S>
Tokens greedy_continue(BasicTransformer<S>& model, const Tokens& prompts, int count) {
    const Index B = prompts.rows(), T0 = prompts.cols();
    Tokens seq(B, T0 + count);
    seq.leftCols(T0) = prompts;
    for (int k = 0; k < count; ++k) {
        const Index T = T0 + k;
        const MatOf<S>& logits = model.forward(seq.leftCols(T));
        for (Index b = 0; b < B; ++b) {
            Index next = 0;
            logits.row(b * T + T - 1).maxCoeff(&next);
            seq(b, T) = static_cast<int>(next);
        }
    }
    return seq.rightCols(count);
}

// [SECTION] Instances -----------------------------------------------------------------------

template class BasicCausalSelfAttention<double>;
template class BasicCausalSelfAttention<float>;
template class BasicTransformerBlock<double>;
template class BasicTransformerBlock<float>;
template class BasicTransformer<double>;
template class BasicTransformer<float>;
template SequenceLoss sequence_cross_entropy(const MatOf<double>&, const Tokens&, MatOf<double>*);
template SequenceLoss sequence_cross_entropy(const MatOf<float>&, const Tokens&, MatOf<float>*);
template std::vector<int> sample_tokens(BasicTransformer<double>&, const std::vector<int>&, int, double, Rng&);
template std::vector<int> sample_tokens(BasicTransformer<float>&, const std::vector<int>&, int, double, Rng&);
template Tokens greedy_continue(BasicTransformer<double>&, const Tokens&, int);
template Tokens greedy_continue(BasicTransformer<float>&, const Tokens&, int);

}  // namespace normlab
