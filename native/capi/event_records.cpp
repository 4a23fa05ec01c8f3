// Svcpp_Client_DrainEvents: the pump for FFI hosts that pay for every call back into them (the koffi binding). It
// runs the client's queued jobs like Svcpp_Client_RunCallbacksUpTo, but the recordable events are written into the
// caller's buffer as records (support/event_records.hpp) instead of calling the host, so a burst of events costs the
// host one call and a walk over bytes. Declared in svcpp.h "Event records"; rules in native/SEMANTICS.md.
#include <string>
#include <utility>

#include "client/client.hpp"
#include "support/event_records.hpp"
#include "support/marshal.hpp"

using namespace svcpp::capi;
namespace core = svcpp::core;

extern "C" {

SVCPP_API Svcpp_Errc SVCPP_CALL Svcpp_Client_DrainEvents(Svcpp_Client *self, uint32_t maxCallbacks, uint8_t *buffer,
                                                         size_t capacity, size_t *size) {
    return Guard("Svcpp_Client_DrainEvents", [&] {
        Require(size, "size");
        if (!buffer && capacity > 0)
            throw core::AbiError(core::Errc::NullArgument, "buffer is NULL with a capacity above 0");
        if (maxCallbacks == 0) throw core::AbiError(core::Errc::InvalidArgument, "maxCallbacks must be at least 1");
        ClientPtr client = ClientOf(self);
        EventRecordSink sink(*self, buffer, capacity);
        // Records come before the host callbacks of the same call: the drain returns right after a job that called
        // the host (or did nothing), so the host can deliver this call's records first and keep the queue's order.
        bool first = true;
        uint64_t recordsBefore = 0;
        client->RunCallbacksRecording(maxCallbacks, &sink, [&] {
            if (!std::exchange(first, false)) {
                const bool recorded = sink.Count() != recordsBefore;
                if (!recorded) return true;
            }
            recordsBefore = sink.Count();
            sink.BeginJob();
            return false;
        });
        *size = sink.Count() == 0 && sink.Needed() > 0 ? sink.Needed() : sink.Used();
    });
}

}  // extern "C"
