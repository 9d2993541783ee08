// NormLab core: the training lab's data sets.
//
// [SECTION] Kinds          — names of the built-in data sets
// [SECTION] Samples        — raw features and labels, before any split
// [SECTION] 2D generators  — circle, xor, gauss, spiral (TensorFlow Playground), moons
// [SECTION] Files          — digits (assets/digits.csv.gz) and the user's own CSV
// [SECTION] Split & scale  — stratified train/test split, standardization with train statistics
//
// Shapes: X is N×d (one case per row, as x in norm.hpp), labels y are N class indices in
// [0, K). Every generator and split is seeded (random.hpp): the same seed gives the same data,
// bit for bit.
#pragma once

#include "normlab/norm/norm.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

class Rng;

using Labels = Eigen::VectorXi;

// [SECTION] Kinds ---------------------------------------------------------------------------

enum class DatasetKind { Circle, Xor, Gauss, Spiral, Moons, Digits, Csv };

inline constexpr DatasetKind kBuiltinDatasets[] = {DatasetKind::Circle, DatasetKind::Xor,   DatasetKind::Gauss,
                                                   DatasetKind::Spiral, DatasetKind::Moons, DatasetKind::Digits};

std::string_view to_string(DatasetKind kind);   // "circle", ..., "digits", "csv" (the CLI's names)
std::string_view display_name(DatasetKind kind); // "Circle", "XOR", ..., "Digits (8×8)", "CSV file"
std::optional<DatasetKind> parse_dataset(std::string_view name);
bool is_synthetic_2d(DatasetKind kind);          // circle, xor, gauss, spiral, moons

// [SECTION] Samples -------------------------------------------------------------------------

struct Samples {
    Mat X;                                   // N×d raw features
    Labels y;                                // N class indices in [0, classes)
    int classes = 0;                         // K ≥ 2
    std::vector<std::string> class_names;    // K names: the label as written ("0".."9", "-1", "1")
    std::vector<std::string> feature_names;  // d names: a CSV's header, else "x1".."xd"
};

// [SECTION] 2D generators -------------------------------------------------------------------
// TensorFlow Playground's generators (dataset.ts), with its noise scale: noise ∈ [0, 0.5] (the
// Playground's slider / 100), points in about [−6, 6]². Two classes: the Playground's positive
// points are class 1, its negative points class 0. n is the total number of points (≥ 2).
//   circle — class 1 inside radius 2.5, class 0 on the ring [3.5, 5]; noise moves the point used
//            for the label (so labels near the boundary flip), as in the Playground.
//   xor    — uniform in [−5, 5]² pushed 0.3 off the axes; class 1 where x·y ≥ 0 (of the noisy point).
//   gauss  — two Gaussians at (2, 2) (class 1) and (−2, −2), variance 0.5 + 7·noise.
//   spiral — two interleaved arms of 1.75 turns, radius 0 → 5, uniform noise ±noise per coordinate.
//   moons  — scikit-learn's two half-moons (Gaussian noise of std `noise` in moon units), scaled
//            by 2.5 and centred so they fill the same box as the others.
// Classes get ⌈n/2⌉ and ⌊n/2⌋ points (circle and xor: as many as the noisy labels give).
Samples make_circle(Eigen::Index n, double noise, Rng& rng);
Samples make_xor(Eigen::Index n, double noise, Rng& rng);
Samples make_gauss(Eigen::Index n, double noise, Rng& rng);
Samples make_spiral(Eigen::Index n, double noise, Rng& rng);
Samples make_moons(Eigen::Index n, double noise, Rng& rng);

// One of the five above, from a seed. Throws std::invalid_argument for a kind that is not 2D,
// n < 2, or noise outside [0, 1].
Samples make_synthetic(DatasetKind kind, Eigen::Index n, double noise, std::uint64_t seed);

// [SECTION] Files ---------------------------------------------------------------------------
// Errors from files are normlab::InputError (eval.hpp): one line that names the file, and for
// a bad cell its line and column (1-based), e.g.
//   `data.csv line 3, column 2: "abc" is not a number`
//   `data.csv line 3, column 2: "nan" is not a finite number`
//   `data.csv line 3, column 2 is empty`
//   `data.csv line 4 has 3 columns, line 1 has 5`
//   `data.csv line 1 has 1 column: need at least one feature and a label`
//   `data.csv line 2, column 5: label "1.5" is not an integer`
//   `data.csv line 2, column 5: label "1e300" is out of range: labels are integers from -10^15 to 10^15`
//   `data.csv: every row has label 1; need at least 2 classes`
//   `data.csv: the label column has 150 distinct values; at most 100 classes`
//   `data.csv is empty: expected rows of numbers, each ending with an integer class label`
//   `data.csv has a header line but no data rows`

// The whole of a regular text file; gzip-compressed files (by their magic bytes) are decompressed
// (zlib). At most kMaxDataBytes (file_io.hpp), before and after decompression. Throws InputError
// `cannot open PATH: REASON` (missing, its parent not a directory, …) or `cannot read PATH:
// REASON` (`Is a directory`, `it is a FIFO, not a regular file`, `it is 20 MB, more than the
// limit of 16 MB`, …).
std::string read_text_file(const std::string& path);

// CSV text → Samples. Each line: d ≥ 1 features, then one integer label (the last column).
// Cells are separated by commas (or by semicolons or tabs when the first line has no comma);
// spaces around a cell and one pair of double quotes are ignored; blank lines are skipped;
// a first line with no numeric cell is a header (its cells become feature names). Labels may
// be any integers (e.g. −1 and 1); they map to class indices in increasing order of value.
// `source` names the text in messages (a path, or "CSV"). Throws InputError.
Samples parse_csv(std::string_view text, std::string_view source);

// read_text_file + parse_csv with the path as the source.
Samples load_csv(const std::string& path);

// assets/digits.csv.gz: the UCI / scikit-learn 8×8 handwritten digits, 1797 rows of 64 pixel
// intensities in 0..16 and a label 0..9 (no header). Path: $NORMLAB_ASSETS_DIR/digits.csv.gz
// when that variable is set, else the source tree's assets/ (compiled in).
// The shipped assets/ folder: $NORMLAB_ASSETS_DIR, else the source tree's.
std::string shipped_assets_dir();
std::string default_digits_path();
Samples load_digits(const std::string& path = default_digits_path());

// [SECTION] Split & scale -------------------------------------------------------------------

// Per-feature affine map raw → scaled: (x − mean) / scale. scale is 1 for a feature that is
// constant on the training set (e.g. digits' always-blank corner pixels), so it maps to 0.
// Features of any magnitude, 1e300 or 1e-320, are standardized exactly (no squares overflow).
struct Scaler {
    Vec mean;   // d
    Vec scale;  // d, > 0
    Mat apply(const Mat& raw) const;   // N×d → N×d
};

// The box the decision-boundary grid spans: the raw data's range in features 0 and 1, padded by
// 5% of the range on each side.
struct Box2D {
    double x_min = 0, x_max = 1, y_min = 0, y_max = 1;
};

struct Dataset {
    std::string name;                        // "spiral", "digits", or the CSV path
    DatasetKind kind = DatasetKind::Spiral;
    Mat train_x, test_x;                     // N_train×d, N_test×d: what the model sees (scaled)
    Labels train_y, test_y;                  // N_train, N_test
    Mat train_raw, test_raw;                 // the same cases unscaled (for scatter plots)
    int classes = 0;
    std::vector<std::string> class_names;
    std::vector<std::string> feature_names;
    Scaler scaler;                           // identity (mean 0, scale 1) when not standardized
    Box2D box;                               // meaningful when features() == 2

    Eigen::Index features() const { return train_x.cols(); }
};

// Stratified split: within each class, a seeded shuffle, then round(n_c · train_ratio) cases
// (at least 1, and at most n_c − 1 when n_c ≥ 2) go to training, the rest to test; both sets are
// then shuffled. With `standardize`, the scaler uses the training set's mean and (biased) std.
// Throws std::invalid_argument unless 0 < train_ratio < 1 and the test set ends up non-empty.
Dataset split_dataset(const Samples& samples, double train_ratio, std::uint64_t seed, bool standardize,
                      std::string name, DatasetKind kind);

// Everything a data set is made from: what the UI's data panel edits.
struct DataSpec {
    DatasetKind kind = DatasetKind::Spiral;
    Eigen::Index samples = 500;   // 2D only: total points (the Playground's 500)
    double noise = 0.0;           // 2D only: [0, 0.5] (the Playground's 0..50 slider / 100)
    double train_ratio = 0.5;     // fraction of cases used for training, (0, 1)
    bool standardize = true;      // feature scaling with training statistics
    std::uint64_t seed = 1;
    std::string path;             // Csv: the file; Digits: empty means default_digits_path()
};

// The training lab's defaults for a kind (what normlab-cli train uses): 500 points, noise 0 and
// train_ratio 0.5 for the 2D sets (the Playground's), train_ratio 0.8 for digits and CSV files.
DataSpec default_data_spec(DatasetKind kind, std::uint64_t seed = 1);

// Generates or loads, then splits and scales (stream derive_seed(seed, 0) generates, stream 1
// splits). Throws InputError for file problems and std::invalid_argument for bad parameters.
Dataset make_dataset(const DataSpec& spec);

}  // namespace normlab
