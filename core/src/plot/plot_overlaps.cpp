// Plot layout, after the legend: reference-line labels and annotations kept clear of each other.
#include "plot/plot_internal.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace normlab::plot_internal {

// [SECTION] Annotation overlaps ---------------------------------------------------------------
//
// Annotations are placed one by one at their offset spot (layout_frame); afterwards, in the
// order of Plot::annotations, each is checked against what is already fixed: the legend box,
// the reference-line labels and the annotations before it. One that meets any of them (or whose
// text is not inside the data area's height) is tried kAnnotationStepEm text heights up, then
// as far down, then twice as far up, … up to kAnnotationMaxShiftEm; the first free spot wins,
// and when there is none the annotation is dropped. Everything scales with the tick font, so a
// k× style moves the same labels by k× the pixels.

namespace {

// Clearance kept around each annotation box, in em: above and below, more than the renderers'
// halo (1.5 px at 12 px text); left and right, so that two labels side by side are two words
// apart (0.6 em, about two spaces) rather than reading as one.
constexpr double kAnnotationClearYEm = 0.12, kAnnotationClearXEm = 0.3;

// A reference-line label moves to the other end of its line (a horizontal line's left end, a
// vertical line's foot).
void move_ref_label_to_other_end(PlacedText& t, const Rect& d) {
    const double off = 0.4 * t.font_px;
    if (t.anchor == TextAnchor::End && t.at.x >= d.x1 - off - 1e-9) {   // a horizontal line's label
        t.at.x = d.x0 + off;
        t.anchor = TextAnchor::Start;
    } else {                                                           // a vertical line's
        t.at.y = d.y1 - off;
    }
}

// A reference-line label under the legend box (a small figure has no free corner), over an x tick
// label or over an earlier reference-line label moves to the other end of its line; a vertical line's label where
// it is in the way there too goes 1.2 text heights down its line, up to kRefLabelRows times;
// where it is still in the way, the label is dropped: the line stays, unlabelled, rather than two
// labels drawn over each other.
constexpr int kRefLabelRows = 4;

}  // namespace

void keep_ref_labels_clear(PlotLayout& L, const PlotStyle& style) {
    const Measure measure{style};
    const Rect& d = L.view.px;
    std::vector<PlacedText> kept;
    std::vector<Rect> taken;
    if (L.has_legend) taken.push_back(L.legend_box);
    for (const PlacedText& t : L.x_tick_labels) taken.push_back(text_box(t, measure(t.text, t.font_px)));
    const auto blocked = [&](const Rect& box) {
        return std::any_of(taken.begin(), taken.end(), [&](const Rect& r) { return boxes_meet(box, r, 0.0); });
    };
    for (PlacedText t : L.ref_labels) {
        const double w = measure(t.text, t.font_px);
        if (blocked(text_box(t, w))) {
            const PlacedText at_top = t;
            move_ref_label_to_other_end(t, d);
            // A vertical line's label: else a row or more down its line, inside the data area.
            const bool vertical = at_top.anchor != TextAnchor::End || at_top.at.x < d.x1 - 0.4 * t.font_px - 1e-9;
            for (int r = 1; vertical && blocked(text_box(t, w)) && r <= kRefLabelRows; ++r) {
                t = at_top;
                t.at.y += r * 1.2 * t.font_px;
                if (t.at.y + kDescent * t.font_px > d.y1) break;
            }
            if (blocked(text_box(t, w))) continue;
        }
        taken.push_back(text_box(t, w));
        kept.push_back(std::move(t));
    }
    L.ref_labels = std::move(kept);
}

void resolve_annotation_overlaps(PlotLayout& L, const PlotStyle& style) {
    if (L.annotations.empty()) return;
    const Measure measure{style};
    const Rect& d = L.view.px;
    std::vector<Rect> fixed;
    if (L.has_legend) fixed.push_back(L.legend_box);
    for (const PlacedText& t : L.ref_labels) fixed.push_back(text_box(t, measure(t.text, t.font_px)));

    std::vector<PlacedText> kept;
    kept.reserve(L.annotations.size());
    for (PlacedText& t : L.annotations) {
        const double f = t.font_px, eps = 1e-6 * f;
        const double clear_x = kAnnotationClearXEm * f, clear_y = kAnnotationClearYEm * f;
        const double w = measure(t.text, f);
        // Horizontally the spot stays (right of the point, or left of it near the right edge);
        // a text that sticks out on the left is pulled in.
        const Rect ink0 = text_box(t, w);
        if (ink0.x0 < d.x0) t.at.x += std::min(d.x0 - ink0.x0, std::max(0.0, d.x1 - ink0.x1));
        const auto free_at = [&](double dy) {
            PlacedText moved = t;
            moved.at.y += dy;
            const Rect ink = text_box(moved, w);
            if (ink.y0 < d.y0 - eps || ink.y1 > d.y1 + eps) return false;
            const Rect box = text_box(moved, w, clear_x, clear_y);
            for (const Rect& r : fixed)
                if (boxes_meet(box, r, eps)) return false;
            return true;
        };
        const double step = kAnnotationStepEm * f;
        const int steps = static_cast<int>(std::floor(kAnnotationMaxShiftEm / kAnnotationStepEm + 1e-9));
        std::optional<double> shift;
        for (int n = 0; n <= steps && !shift; ++n) {
            for (const double dy : {-n * step, n * step}) {   // up first (y grows downward)
                if (free_at(dy)) {
                    shift = dy;
                    break;
                }
                if (n == 0) break;
            }
        }
        if (!shift) continue;   // nowhere free near its point: dropped rather than drawn over another
        t.at.y += *shift;
        fixed.push_back(text_box(t, w, clear_x, clear_y));
        kept.push_back(std::move(t));
    }
    L.annotations = std::move(kept);
}

}  // namespace normlab::plot_internal
