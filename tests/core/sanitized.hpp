// Tests: whether this build runs under AddressSanitizer (GCC says so with __SANITIZE_ADDRESS__,
// clang with __has_feature). Memory tests skip themselves there: ASan reserves terabytes of address
// space and its shadow memory changes every peak.
#pragma once

namespace normlab::test {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

}  // namespace normlab::test
