// Finite-difference check of a whole model's parameters (test_mlp.cpp, test_transformer.cpp).
#pragma once

#include "normlab/models/mlp.hpp"   // Param

#include <gtest/gtest.h>

#include <algorithm>

namespace normlab {

// Central differences (loss(θ + h) − loss(θ − h)) / 2h of `loss()` over every entry of p.value,
// against p.grad (the analytic gradient, computed before the call): relative error ‖fd − grad‖ /
// max(‖fd‖, ‖grad‖) < 1e-6, or an absolute error < `zero` where both are about zero. h = 1e-5.
template <class Loss>
void expect_gradient_matches_fd(Param& p, Loss&& loss, double zero) {
    SCOPED_TRACE(p.name);
    const double h = 1e-5;
    const Mat analytic = p.grad;
    Mat fd(p.value.rows(), p.value.cols());
    for (Eigen::Index i = 0; i < p.value.size(); ++i) {
        double& theta = p.value.data()[i];
        const double saved = theta;
        theta = saved + h;
        const double up = loss();
        theta = saved - h;
        const double down = loss();
        theta = saved;
        fd.data()[i] = (up - down) / (2.0 * h);
    }
    const double scale = std::max(fd.norm(), analytic.norm());
    const double err = (fd - analytic).norm();
    if (scale < zero) {
        EXPECT_LT(err, zero);
    } else {
        EXPECT_LT(err / scale, 1e-6) << "fd " << fd.transpose() << "\nanalytic " << analytic.transpose();
    }
}

}  // namespace normlab
