// NormLab core: changing a matrix's size without a dangling buffer when memory runs out.
//
// Eigen 3.4 frees a matrix's buffer before it allocates the new one, in resize() and in every
// assignment that changes the size. When that allocation throws std::bad_alloc, the matrix keeps
// the freed pointer and its destructor frees it a second time: heap corruption instead of the
// "out of memory" refusal (docs/RELIABILITY.md, Memory). Every buffer a model resizes between
// steps goes through these: the new buffer is allocated first and swapped in, so a throw leaves
// the old one whole.
#pragma once

#include <Eigen/Core>

namespace normlab {

// m becomes rows×cols (contents unspecified when the size changes, as resize()).
template <class Derived>
void fit_size(Eigen::PlainObjectBase<Derived>& m, Eigen::Index rows, Eigen::Index cols) {
    if (m.rows() == rows && m.cols() == cols) return;
    Derived fresh(rows, cols);
    m.derived().swap(fresh);
}

// A vector's length.
template <class Derived>
void fit_size(Eigen::PlainObjectBase<Derived>& v, Eigen::Index n) {
    static_assert(Derived::IsVectorAtCompileTime, "fit_size(v, n) is for vectors");
    if (v.size() == n) return;
    Derived fresh(n);
    v.derived().swap(fresh);
}

// m = e, where e may have another size than m (e is evaluated before m changes, so it may read m).
template <class Derived, class Expr>
void assign_resized(Eigen::PlainObjectBase<Derived>& m, const Eigen::DenseBase<Expr>& e) {
    if (m.rows() == e.rows() && m.cols() == e.cols()) {
        m.derived() = e.derived();
        return;
    }
    Derived fresh(e.derived());
    m.derived().swap(fresh);
}

}  // namespace normlab
