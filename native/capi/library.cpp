// The library-level C functions that belong to no object: ABI version, last error, memory, the global
// pump and hook. Hand-written; everything per object is generated (native/capi/generated).
#include <cstdlib>
#include <string>

#include "client/client_registry.hpp"
#include "generated/callback_wrappers.hpp"
#include "support/marshal.hpp"
#include "support/properties.hpp"
#include "per_thread/per_thread.hpp"

using namespace svcpp::capi;
namespace core = svcpp::core;

namespace svcpp::capi {
namespace {
/** The calling thread's last error text (a per-thread object: per_thread/per_thread.hpp says why not thread_local). */
struct LastErrorSlot;
std::string &ThreadLastError() { return core::threads::PerThread<std::string, LastErrorSlot>(); }
}  // namespace

void SetLastError(const char *function, const std::string &detail) {
    ThreadLastError() = std::string(function) + ": " + detail;
}
const std::string &LastError() { return ThreadLastError(); }
}  // namespace svcpp::capi

extern "C" {

SVCPP_API uint32_t SVCPP_CALL Svcpp_GetAbiVersion(void) { return SVCPP_ABI_VERSION; }

SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_CheckAbiVersion(uint32_t compiledAgainst) {
    return Guard("Svcpp_CheckAbiVersion", [&] {
        const uint32_t major = compiledAgainst >> 16, minor = compiledAgainst & 0xFFFF;
        if (major != SVCPP_ABI_VERSION_MAJOR || minor > SVCPP_ABI_VERSION_MINOR) {
            throw core::AbiError(core::Errc::AbiMismatch, "caller ABI " + std::to_string(major) + "." +
                                                              std::to_string(minor) + ", library ABI " +
                                                              std::to_string(SVCPP_ABI_VERSION_MAJOR) + "." +
                                                              std::to_string(SVCPP_ABI_VERSION_MINOR));
        }
    });
}

SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_GetLastErrorMessage(Svcpp_String *out) {
    if (!out) return Svcpp_Errc_NullArgument;  // not through Guard: it must not overwrite the message it reports
    try {
        OutString(LastError(), out, "out");
        return Svcpp_Errc_Ok;
    } catch (...) {
        return Svcpp_Errc_OutOfMemory;
    }
}

SVCPP_API void *SVCPP_CALL Svcpp_Alloc(size_t size) { return std::malloc(size ? size : 1); }

SVCPP_API void SVCPP_CALL Svcpp_Free(void *ptr) { std::free(ptr); }

SVCPP_API void SVCPP_CALL Svcpp_FreeProperties(Svcpp_Properties props) { ReleaseProperties(props); }

SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_RunCallbacks(void) {
    return Guard("Svcpp_RunCallbacks", [&] {
        if (core::AnyPumpOnThisThread())
            throw core::AbiError(core::Errc::Busy, "Svcpp_RunCallbacks called from inside a callback");
        for (auto &client : core::clients::Snapshot()) {
            // A client pumped by another thread right now is left to that pump; the others still run.
            if (!client->Queue().IsPumpingOnAnotherThread()) client->RunCallbacks();
        }
    });
}

SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_ResetCallbacks(void) {
    return Guard("Svcpp_ResetCallbacks", [&] {
        for (auto &client : core::clients::Snapshot()) client->ResetCallbacks();
        core::clients::SetGlobalHook({});  // "no earlier registration runs again" includes the global hook
    });
}

SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_SetCallbacksPendingHook(Svcpp_CallbacksPendingFn fn, Svcpp_FreeFn fnUserDataFree,
                                                              void *fnUserData) {
    return Guard("Svcpp_SetCallbacksPendingHook", [&] {
        auto hook = WrapCallbacksPendingFn(fn, fnUserDataFree, fnUserData);
        KeepUserDataOnThrow keep(hook.owner);
        core::clients::SetGlobalHook(std::move(hook));
    });
}

}  // extern "C"
