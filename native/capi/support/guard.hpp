// Guard: every C entry point runs its body through here. Exceptions never cross the ABI: AbiError becomes
// its Svcpp_Errc, bad_alloc OutOfMemory, anything else Internal; each failure sets the thread-local last
// error ("<function>: <detail>").
#pragma once
#include <exception>
#include <new>
#include <string>

#include "runtime/abi_error.hpp"
#include "svcpp.h"

namespace svcpp::capi {

void SetLastError(const char *function, const std::string &detail);
const std::string &LastError();

/**
 * The Svcpp_Errc of the exception being handled, with the thread's last error set. Called only from inside a
 * catch handler. Out of line, so that each of the ~600 entry points carries one catch-all landing pad and a call
 * instead of four inlined handlers with their string conversions (binary size, docs/binary-size.md); the path
 * without an exception is the same code either way.
 */
Svcpp_Errc ErrcOfCurrentException(const char *function) noexcept;

template <class Body>
Svcpp_Errc Guard(const char *function, Body &&body) noexcept {
    try {
        body();
        return Svcpp_Errc_Ok;
    } catch (...) {
        return ErrcOfCurrentException(function);
    }
}

/**
 * Throws AbiError(code, "<what><detail>"). The failure paths of the inline checks below and in marshal.hpp,
 * handles.hpp and spans.hpp call these out-of-line functions, so that the message is built in one place instead of
 * in every entry point that inlines a check (binary size); the check itself stays inline.
 */
[[noreturn]] void ThrowAbiError(core::Errc code, const char *what, const char *detail);
/** Throws AbiError(code, "<what><detail><number>"). */
[[noreturn]] void ThrowAbiError(core::Errc code, const char *what, const char *detail, long long number);
[[noreturn]] void ThrowAbiError(core::Errc code, const char *what, const char *detail, unsigned long long number);

/** Throws NullArgument when a required pointer is NULL. */
inline void Require(const void *p, const char *what) {
    if (!p) ThrowAbiError(core::Errc::NullArgument, what, " is NULL");
}

}  // namespace svcpp::capi
