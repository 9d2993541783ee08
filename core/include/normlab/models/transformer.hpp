// NormLab core: the depth lab's small decoder-only transformer (forward and analytic backward).
//
// [SECTION] Placements   — Post-LN, Pre-LN, NormFormer (where the norms sit in a block)
// [SECTION] Initialization — how the linear weights W are drawn: uniform ±1/√n_in or Xavier
// [SECTION] Configuration — sizes, norm, NormFormer's options; validate()
// [SECTION] Attention    — causal multi-head self-attention (with NormFormer's head scales)
// [SECTION] Block        — attention and GELU feed-forward sub-blocks with residual connections
// [SECTION] Transformer  — embeddings, L blocks, final norm, output head
// [SECTION] Loss         — cross-entropy over the scored positions
// [SECTION] Sampling     — next tokens with temperature, seeded
//
// Shapes: B cases of T tokens, width d, H heads of d_h = d/H, feed-forward width 4d, vocabulary
// V; activations are (B·T)×d, row b·T + t for token t of case b (core's per-row norms apply).
// Layers, norms, parameters and optimizers are mlp.hpp's; templates on the scalar S as there.
//
// Blocks (x: the residual stream entering block l, (B·T)×d; docs/ARCHITECTURE.md, The science:
// the transformer):
//   Post-LN     h = LN₁(x + Attn(x));          out = LN₂(h + FFN(h))
//   Pre-LN      h = x + Attn(LN₁(x));          out = h + FFN(LN₂(h))
//   NormFormer  h = x + LNₐ(Attn_γ(LN₁(x)));   out = λ ⊙ h + W₂ LN_f(GELU(W₁ LN₂(h)))
//               (LNₐ, LN_f and γ each optional: NormFormerParts, for the ablation)
// Attn(x) = Concat(head_1, ..., head_H) W_Oᵀ, head_i = softmax(Q_i K_iᵀ/√d_h + causal mask) V_i;
// Attn_γ scales head i by γ_i before W_O; FFN(x) = W₂ GELU(W₁ x + c₁) + c₂; λ ≡ 1 unless enabled.
// Pre-LN and NormFormer end with a final norm before the output head; Post-LN does not.
#pragma once

#include "normlab/models/mlp.hpp"
#include "normlab/base/random.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// Token ids, B×T (one case per row).
using Tokens = Eigen::MatrixXi;

// [SECTION] Placements ----------------------------------------------------------------------

enum class NormPlacement { PostLN, PreLN, NormFormer };

inline constexpr NormPlacement kAllNormPlacements[] = {NormPlacement::PostLN, NormPlacement::PreLN,
                                                       NormPlacement::NormFormer};

std::string_view to_string(NormPlacement placement);       // "postln" | "preln" | "normformer"
std::string_view display_name(NormPlacement placement);    // "Post-LN" | "Pre-LN" | "NormFormer"
std::optional<NormPlacement> parse_norm_placement(std::string_view name);

// [SECTION] Initialization ------------------------------------------------------------------

// How every linear weight matrix W (a parameter named "*.W": DenseLayer's W, n_out×n_in, z = x Wᵀ + c)
// is drawn; embeddings are N(0, 1) and biases 0 either way. Both are uniform, U(−a, a), variance a²/3:
//   Uniform  a = 1/√n_in                 variance 1/(3 n_in)         PyTorch's nn.Linear default
//   Xavier   a = √(6/(n_in + n_out))     variance 2/(n_in + n_out)   Glorot & Bengio 2010, "uniform";
//            the initialization Xiong et al. 2020 assume in their Post-LN / Pre-LN gradient analysis
// (n_in the columns of W, n_out its rows.) The matrices, n_out×n_in: attention W_qkv 3d×d (Xavier
// takes the fused matrix whole, n_out = 3d, as PyTorch's nn.MultiheadAttention does with its
// in_proj_weight), W_O d×d, FFN W₁ 4d×d, W₂ d×4d, output head V×d.
enum class TransformerInit { Uniform, Xavier };

inline constexpr TransformerInit kAllTransformerInits[] = {TransformerInit::Uniform, TransformerInit::Xavier};

std::string_view to_string(TransformerInit init);        // "uniform" | "xavier"
std::string_view display_name(TransformerInit init);     // "uniform ±1/√n" | "Xavier"
std::optional<TransformerInit> parse_transformer_init(std::string_view name);

// a of U(−a, a) for an n_out×n_in weight matrix under `init` (the table above).
double init_limit(TransformerInit init, Eigen::Index n_in, Eigen::Index n_out);

// [SECTION] Configuration -------------------------------------------------------------------

// NormFormer's additions to a Pre-LN block, each on or off on its own (an ablation; placement
// NormFormer only). All on: NormFormer as published; all off: Pre-LN, bit for bit (the norms and
// head scales draw no random numbers, so every weight is Pre-LN's).
struct NormFormerParts {
    bool attn_norm = true;    // LNₐ on the attention output
    bool ffn_norm = true;     // LN_f on the FFN's 4d GELU activations
    bool head_scale = true;   // the learned scale γ_i of each head (init 1)
};

bool operator==(const NormFormerParts& a, const NormFormerParts& b);
inline bool operator!=(const NormFormerParts& a, const NormFormerParts& b) { return !(a == b); }

// "attn_norm,ffn_norm,head_scale" (the parts that are on, in that order; "none" when none).
std::string to_string(const NormFormerParts& parts);
// The inverse: a comma-separated list of attn_norm, ffn_norm, head_scale, or "none" (or "all").
std::optional<NormFormerParts> parse_normformer_parts(std::string_view list);

struct TransformerConfig {
    int vocab = 11;                       // V ≥ 2
    int context = 12;                     // longest sequence T_max (position embeddings), ≥ 1
    int layers = 2;                       // L, 1..12
    Eigen::Index width = 32;              // d, 4..256, a multiple of heads
    int heads = 4;                        // H ≥ 1
    NormPlacement placement = NormPlacement::PreLN;
    NormSpec norm{Norm::LayerNorm, 1e-5}; // layernorm or rmsnorm; every norm has learned g and b
    bool residual_scale = false;          // NormFormer only: learned λ (d, init 1) on the FFN residual
    TransformerInit init = TransformerInit::Uniform;   // how the linear weights W are drawn
    NormFormerParts normformer;           // NormFormer only: which of its additions are on
};

inline constexpr int kMinLayers = 1, kMaxLayers = 12;
inline constexpr Eigen::Index kMinTransformerWidth = 4, kMaxTransformerWidth = 256;
inline constexpr int kFfnMultiple = 4;    // feed-forward width 4d

// Empty when usable, else one sentence saying what is wrong ("width 30 is not a multiple of 4 heads").
std::string validate(const TransformerConfig& config);

// [SECTION] Attention -----------------------------------------------------------------------

// Causal multi-head self-attention on (B·T)×d inputs: qkv = x W_qkvᵀ + c (W_qkv is 3d×d: rows
// [0, d) make Q, [d, 2d) K, [2d, 3d) V; head i uses columns [i·d_h, (i+1)·d_h) of each), per case
// and head P = softmax(Q Kᵀ/√d_h) over keys j ≤ query t, Y = P V, then the optional head scales γ
// and the output projection W_O (d×d). Caches qkv, every P and Y for the backward.
template <class S>
class BasicCausalSelfAttention {
public:
    using Mat = MatOf<S>;
    using Param = BasicParam<S>;
    BasicCausalSelfAttention(const std::string& name, Eigen::Index width, int heads, bool head_scale);
    // x: (B·T)×d, rows grouped by case. Fills output(), (B·T)×d.
    void forward(const Mat& x, Eigen::Index batch, Eigen::Index time);
    // x: the forward's input; dout: ∂L/∂output. Fills input_grad() and the parameters' grads.
    void backward(const Mat& x, const Mat& dout);
    std::vector<Param*> params();
    const Mat& output() const { return proj_.output(); }
    const Mat& input_grad() const { return qkv_.input_grad(); }
    BasicDenseLayer<S>& qkv() { return qkv_; }
    BasicDenseLayer<S>& proj() { return proj_; }
    // Attention weights of the last forward for case b, head i: T×T, lower triangular.
    Mat weights(Eigen::Index b, int head) const;

private:
    Eigen::Index width_, head_width_;
    int heads_;
    Eigen::Index batch_ = 0, time_ = 0;
    BasicDenseLayer<S> qkv_;      // 3d×d
    BasicDenseLayer<S> proj_;     // d×d (W_O)
    std::optional<Param> gamma_;  // H×1 head scales (NormFormer), init 1
    std::vector<Mat> probs_;      // double: B·H matrices T×T: P
    Mat heads_out_;               // (B·T)×d: Y = Concat(head_i), before the head scales
    Mat scaled_;                  // (B·T)×d: Concat(γ_i head_i), the projection's input
    Mat dheads_, dqkv_;           // backward work space
    VecOf<S> cache_, work_;       // float: the attention kernel's P and inputs, and its scratch (model_kernels)
};

// [SECTION] Block ---------------------------------------------------------------------------

template <class S>
class BasicTransformerBlock {
public:
    using Mat = MatOf<S>;
    using Param = BasicParam<S>;
    BasicTransformerBlock(const std::string& name, const TransformerConfig& config);
    // x: (B·T)×d, the residual stream. Fills output().
    void forward(const Mat& x, Eigen::Index batch, Eigen::Index time);
    // x: the forward's input; dout: ∂L/∂output. Fills input_grad() and the parameters' grads.
    void backward(const Mat& x, const Mat& dout);
    std::vector<Param*> params();
    const Mat& output() const { return *out_; }
    const Mat& input_grad() const { return din_; }
    // The FFN's output weights W₂ (d×4d): NormFormer's per-layer gradient measure reads its grad.
    const BasicDenseLayer<S>& ffn_output() const { return fc2_; }
    BasicDenseLayer<S>& ffn_output() { return fc2_; }
    BasicCausalSelfAttention<S>& attention() { return attn_; }
    const BasicCausalSelfAttention<S>& attention() const { return attn_; }

private:
    // FFN: fc2(ffn_norm?(GELU(fc1(in)))); backward returns ∂L/∂in (fc1's input_grad()).
    void ffn_forward(const Mat& in);
    const Mat& ffn_backward(const Mat& in, const Mat& dout);

    NormPlacement placement_;
    BasicCausalSelfAttention<S> attn_;
    BasicNormLayer<S> ln1_, ln2_;                    // the two sub-block norms (LN₁, LN₂)
    std::unique_ptr<BasicNormLayer<S>> attn_norm_;   // NormFormer: LNₐ on the attention output
    std::unique_ptr<BasicNormLayer<S>> ffn_norm_;    // NormFormer: LN_f on the 4d GELU activations
    BasicDenseLayer<S> fc1_;                         // 4d×d
    BasicActivationLayer<S> gelu_;
    BasicDenseLayer<S> fc2_;                         // d×4d (W₂)
    std::optional<Param> lambda_;            // d×1 residual scale λ (NormFormer, optional)
    Mat sum1_, sum2_;                        // Post-LN: x + Attn(x), h + FFN(h)
    Mat h_;                                  // Pre-LN / NormFormer: stream after the attention sub-block
    Mat res_out_;                            // Pre-LN / NormFormer: the block's output
    const Mat* out_ = nullptr;               // ln2_.output() (Post-LN) or res_out_
    Mat dh_, din_;                           // backward work space
};

// [SECTION] Transformer ---------------------------------------------------------------------

template <class S>
class BasicTransformer {
public:
    using Mat = MatOf<S>;
    using Param = BasicParam<S>;
    // Initial values from an Rng with this seed, in construction order (deterministic):
    //   token and position embeddings  N(0, 1)                     (PyTorch's nn.Embedding)
    //   every linear W (n_out×n_in)     config.init:
    //     Uniform (default)             U(−1/√n_in, 1/√n_in)       (PyTorch's nn.Linear)
    //     Xavier                        U(±√(6/(n_in + n_out)))    (Glorot & Bengio 2010; Xiong et al. 2020)
    //   linear biases 0; norm g = 1, b = 0; head scales γ = 1; residual scales λ = 1.
    // Both inits draw the same uniforms in the same order: only their scale differs. float: the
    // same draws, each rounded to float.
    // Throws std::invalid_argument when validate(config) is not empty.
    BasicTransformer(const TransformerConfig& config, std::uint64_t seed);

    // tokens: B×T ids in [0, V), 1 ≤ T ≤ context → logits (B·T)×V (row b·T + t scores the token
    // after position t of case b). Throws std::invalid_argument on bad ids or lengths.
    const Mat& forward(const Tokens& tokens);
    // dlogits: ∂L/∂logits for the last forward ((B·T)×V). Fills every parameter's grad.
    void backward(const Mat& dlogits);
    // One optimizer step for every parameter (calls opt.begin_step() first).
    void update(Optimizer& opt);

    std::vector<Param*> params();
    Eigen::Index parameter_count();
    const TransformerConfig& config() const { return config_; }
    int layers() const { return static_cast<int>(blocks_.size()); }
    const BasicTransformerBlock<S>& block(int l) const { return *blocks_[static_cast<std::size_t>(l)]; }
    BasicTransformerBlock<S>& block(int l) { return *blocks_[static_cast<std::size_t>(l)]; }

    // NormFormer's measure after backward(): per layer l, mean_ij |∂L/∂W₂|_ij of its FFN output
    // weights (d×4d). out gets L entries, layer 1 first.
    void ffn_output_grad_means(std::vector<double>& out) const;

private:
    TransformerConfig config_;
    Param wte_;                                        // V×d token embeddings
    Param wpe_;                                        // T_max×d position embeddings
    std::vector<std::unique_ptr<BasicTransformerBlock<S>>> blocks_;
    std::unique_ptr<BasicNormLayer<S>> final_norm_;    // Pre-LN and NormFormer
    BasicDenseLayer<S> head_;                          // V×d
    Tokens tokens_;                                    // the last forward's input
    Mat x0_;                                           // (B·T)×d embeddings
    Mat dx_;                                           // backward work space
};

using CausalSelfAttention = BasicCausalSelfAttention<double>;
using TransformerBlock = BasicTransformerBlock<double>;
using Transformer = BasicTransformer<double>;

// [SECTION] Loss ----------------------------------------------------------------------------

// Cross-entropy over the scored positions: targets is B×T with the next token's id where a
// position is scored and −1 where it is not (PyTorch's ignore_index). With S scored positions,
// L = −(1/S) Σ_scored log p(target) (mlp.hpp's softmax_cross_entropy on the scored rows); when
// dlogits is given it gets ∂L/∂logits, (B·T)×V, zero on the rows not scored.
// correct counts scored positions whose largest logit is the target. Throws std::invalid_argument
// when nothing is scored or the shapes differ.
struct SequenceLoss {
    double loss = 0.0;
    Eigen::Index scored = 0;
    Eigen::Index correct = 0;
};
template <class S>
SequenceLoss sequence_cross_entropy(const MatOf<S>& logits, const Tokens& targets, OptionalOut<S> dlogits);

// [SECTION] Sampling ------------------------------------------------------------------------

// Appends `count` tokens to `prompt` (≥ 1 token), one at a time: the model reads the last
// min(length, context) tokens and the next token is drawn from softmax(logits / temperature)
// with rng (temperature 0: the largest logit, the first on ties; no randomness used). Returns
// the new tokens only.
template <class S>
std::vector<int> sample_tokens(BasicTransformer<S>& model, const std::vector<int>& prompt, int count,
                               double temperature, Rng& rng);

// Greedy continuation of B prompts at once: prompts B×T₀ (T₀ + count − 1 ≤ context) → B×count
// ids, each the largest logit (the first on ties) after the prompt and the ids chosen so far.
template <class S>
Tokens greedy_continue(BasicTransformer<S>& model, const Tokens& prompts, int count);

}  // namespace normlab
