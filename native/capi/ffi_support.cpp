// Library functions for FFI hosts (the koffi binding), hand-written like library.cpp: a string copied into the
// caller's memory (one call instead of decoding library memory and freeing it in two more), and the wakeup pipe
// (an event-loop host waits for work on a descriptor instead of a timer; the hook would run on an SDK thread, which an
// FFI callback must not). Declared in the Library section of svcpp.h; rules in native/SEMANTICS.md.
#include <cstring>
#include <string>

#include "runtime/wakeup_pipe.hpp"
#include "support/marshal.hpp"

using namespace svcpp::capi;
namespace core = svcpp::core;

extern "C" {

SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_TakeStringInto(Svcpp_String *s, uint8_t *buffer, size_t capacity) {
    return Guard("Svcpp_TakeStringInto", [&] {
        Require(s, "s");
        if (!s->ptr && s->size > 0)
            throw core::AbiError(core::Errc::NullArgument, "s->ptr is NULL with a size above 0");
        if (!buffer && capacity > 0)
            throw core::AbiError(core::Errc::NullArgument, "buffer is NULL with a capacity above 0");
        if (s->size > capacity) {
            throw core::AbiError(
                core::Errc::InvalidArgument,
                "the string's " + std::to_string(s->size) + " bytes exceed the capacity " + std::to_string(capacity));
        }
        if (s->size > 0) std::memcpy(buffer, s->ptr, s->size);
        Svcpp_Free(s->ptr);
        *s = {};
    });
}

SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_Client_OpenWakeupFd(Svcpp_Client const *self, int32_t *outFd) {
    return Guard("Svcpp_Client_OpenWakeupFd", [&] {
        Require(outFd, "outFd");
        ClientPtr client = ClientOf(self);
        const core::WakeupPipe pipe = core::OpenWakeupPipe();
        client->Queue().SetWakeupFd(pipe.writeFd);
        *outFd = pipe.readFd;
    });
}

}  // extern "C"
