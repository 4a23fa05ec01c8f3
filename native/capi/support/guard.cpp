// The out-of-line halves of support/guard.hpp: the exception-to-error-code mapping every entry point's Guard
// calls from its catch handler, and the throws of the inline argument checks.
#include "support/guard.hpp"

#include <string>

namespace svcpp::capi {

Svcpp_Errc ErrcOfCurrentException(const char *function) noexcept {
    // AbiError becomes its Svcpp_Errc, bad_alloc OutOfMemory, anything else Internal.
    try {
        throw;
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

void ThrowAbiError(core::Errc code, const char *what, const char *detail) {
    throw core::AbiError(code, std::string(what) + detail);
}

void ThrowAbiError(core::Errc code, const char *what, const char *detail, long long number) {
    throw core::AbiError(code, std::string(what) + detail + std::to_string(number));
}

void ThrowAbiError(core::Errc code, const char *what, const char *detail, unsigned long long number) {
    throw core::AbiError(code, std::string(what) + detail + std::to_string(number));
}

}  // namespace svcpp::capi
