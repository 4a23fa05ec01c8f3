// The event records of Svcpp_Client_DrainEvents (native/capi/event_records.cpp; layout and rules in
// native/SEMANTICS.md "Event records"): while a drain runs a client's jobs, the generated callback wrappers of the
// recordable events (tools/gen/event_records.mjs) append a record to the host's buffer instead of calling the host.
//
// Marshalling only: a record holds the callback's arguments as the C callback would get them, and for an event with
// a payload the lookup snapshot the public C entry point writes, so a record answers exactly what the callback and
// the lookup would.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "runtime/callback_queue.hpp"
#include "support/snapshot_writer.hpp"
#include "svcpp.h"

namespace svcpp::capi {

/** What a recordable event without a payload passes as its payload writer. */
struct NoPayload {};

class EventRecordSink final : public core::PumpRecorder {
  public:
    /** Every record starts at a multiple of this (the header's u64 and the snapshot layout's alignment hold). */
    static constexpr size_t kAlign = 8;

    EventRecordSink(Svcpp_Client client, uint8_t *buffer, size_t capacity)
        : client_(client), buffer_(buffer), capacity_(buffer ? capacity : 0) {}

    /**
     * The sink of the drain running the current job, or nullptr. The cast is sound because this is the only
     * PumpRecorder there is: the core installs none itself, and Svcpp_Client_DrainEvents installs only this.
     */
    static EventRecordSink *Active() { return static_cast<EventRecordSink *>(core::CurrentPumpRecorder()); }

    /** Bytes of the complete records written. */
    size_t Used() const { return used_; }
    /** Records written. */
    uint64_t Count() const { return count_; }
    /** The bytes the records of a first job needed when they did not fit the empty buffer (0: none). */
    size_t Needed() const { return needed_; }

    /** A job starts: a decline takes back what it recorded so far, so a job put back is recorded once when it runs
     * again. */
    void BeginJob() {
        jobStart_ = used_;
        jobStartCount_ = count_;
    }

    /**
     * Appends one record: header (u32 record size, u32 0, u64 userData), then `writeArgs(SnapshotWriter &)`, then
     * for an event with a payload a presence byte and, when present, the payload's snapshot from the next multiple
     * of 8. `writePayload(client, buffer, capacity, size)` is the public lookup snapshot entry point's call. A record
     * that does not fit declines the job (core::DeclineCurrentJob): it stays queued, and nothing of it is written.
     */
    template <class Args, class Payload>
    void Record(void *userData, Args &&writeArgs, Payload &&writePayload) {
        const size_t room = capacity_ - used_;
        uint8_t *at = room > 0 ? buffer_ + used_ : nullptr;
        SnapshotWriter w(at, room);
        w.U32(0);  // the record's size, written last
        w.U32(0);  // reserved
        w.U64(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(userData)));
        writeArgs(w);
        size_t end = w.Size();
        if constexpr (!std::is_same_v<std::decay_t<Payload>, NoPayload>) {
            const size_t presenceAt = end;
            const size_t payloadAt = AlignUp(presenceAt + 1);
            const bool roomForPayload = payloadAt < room;
            size_t payloadSize = 0;
            const Svcpp_Errc rc = writePayload(&client_, roomForPayload ? at + payloadAt : nullptr,
                                               roomForPayload ? room - payloadAt : 0, &payloadSize);
            // Nothing found, or a lookup that refuses (a client dropped meanwhile): absent, as the lookup answers.
            const bool present = rc == Svcpp_Errc_Ok && payloadSize > 0;
            end = present ? payloadAt + payloadSize : presenceAt + 1;
            if (end <= room) {
                at[presenceAt] = present ? 1 : 0;
                if (present) std::memset(at + presenceAt + 1, 0, payloadAt - presenceAt - 1);
            }
        }
        const size_t size = AlignUp(end);
        if (size > room) {
            if (jobStart_ == 0) needed_ = std::max(needed_, used_ + size);
            used_ = jobStart_;
            count_ = jobStartCount_;
            core::DeclineCurrentJob();
            return;
        }
        std::memset(at + end, 0, size - end);  // padding bytes are 0, like the snapshot layout's
        const auto recordSize = static_cast<uint32_t>(size);
        std::memcpy(at, &recordSize, sizeof recordSize);
        used_ += size;
        ++count_;
    }

  private:
    static size_t AlignUp(size_t n) { return (n + kAlign - 1) & ~(kAlign - 1); }

    Svcpp_Client client_;  // a copy of the drained handle, for the payload lookups
    uint8_t *buffer_;
    size_t capacity_;
    size_t used_ = 0;
    uint64_t count_ = 0;
    size_t needed_ = 0;
    size_t jobStart_ = 0;
    uint64_t jobStartCount_ = 0;
};

}  // namespace svcpp::capi
