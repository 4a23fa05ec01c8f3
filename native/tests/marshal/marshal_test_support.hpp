// Shared helpers of the marshalling suites: which Errc a conversion throws.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "runtime/abi_error.hpp"
#include "svcpp.h"

namespace svcpp::capi::test {

/** The Errc of the AbiError f throws; Errc::Ok when it returns normally. */
inline core::Errc ErrcOf(const std::function<void()> &f) {
    try {
        f();
    } catch (const core::AbiError &e) {
        return e.code();
    }
    return core::Errc::Ok;
}

/** A borrowed Svcpp_String over a literal (may hold any bytes). */
inline Svcpp_String S(const char *bytes, size_t size) {
    return Svcpp_String{reinterpret_cast<uint8_t *>(const_cast<char *>(bytes)), size};
}
inline Svcpp_String S(const char *text) { return S(text, std::char_traits<char>::length(text)); }

}  // namespace svcpp::capi::test
