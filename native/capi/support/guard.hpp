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

template <class Body>
Svcpp_Errc Guard(const char *function, Body &&body) noexcept {
    try {
        body();
        return Svcpp_Errc_Ok;
    } catch (const core::AbiError &e) {
        SetLastError(function, e.what());
        return static_cast<Svcpp_Errc>(e.code());
    } catch (const std::bad_alloc &) {
        SetLastError(function, "out of memory");
        return Svcpp_Errc_OutOfMemory;
    } catch (const std::exception &e) {
        SetLastError(function, e.what());
        return Svcpp_Errc_Internal;
    } catch (...) {
        SetLastError(function, "unknown internal error");
        return Svcpp_Errc_Internal;
    }
}

/** Throws NullArgument when a required pointer is NULL. */
inline void Require(const void *p, const char *what) {
    if (!p) throw core::AbiError(core::Errc::NullArgument, std::string(what) + " is NULL");
}

}  // namespace svcpp::capi
