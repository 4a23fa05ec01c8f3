// SdkThreads: the threads one client owns, by the kind Client::SetThreadPriority names them —
//   Client  the I/O thread (svcpp-io): HTTP, the gateways, timers;
//   Voice   the real-time audio thread (svcpp-voice): capture, mixing, encode/decode;
//   Network the voice UDP thread of each call (svcpp-net): media packets in and out.
// Each thread enters here when it starts and leaves when it ends, so a priority set before a thread exists reaches
// it when it starts, and one set while it runs reaches it at once. ClientCreateOptions::CpuAffinityMask pins them.
//
// A priority is a Linux nice value (-20 highest … 19 lowest), applied per thread with setpriority(2) on the
// thread's id; the scheduling class stays SCHED_OTHER (real-time classes need privileges a game rarely has).
// An unprivileged process may always lower its threads' priority (raise nice); going back up, or above the start
// value, needs CAP_SYS_NICE or RLIMIT_NICE. When the OS refuses, the thread keeps its priority and the refusal is
// logged as a warning (native/SEMANTICS.md "Thread priority").
#pragma once
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "generated/enums.hpp"

namespace svcpp::core {

class SdkThreads : public std::enable_shared_from_this<SdkThreads> {
  public:
    /** Where refusals go (any thread). */
    using RefusalLog = std::function<void(std::string)>;
    static constexpr int32_t kMinPriority = -20;
    static constexpr int32_t kMaxPriority = 19;

    SdkThreads(std::optional<uint64_t> cpuAffinityMask, RefusalLog log);

    /** The calling thread's membership: it leaves the set when this is destroyed (on the same thread). */
    class Membership {
      public:
        Membership() = default;
        Membership(std::weak_ptr<SdkThreads> owner, pid_t tid) : owner_(std::move(owner)), tid_(tid) {}
        Membership(Membership &&other) noexcept : owner_(std::move(other.owner_)), tid_(other.tid_) { other.tid_ = 0; }
        Membership &operator=(Membership &&) = delete;
        ~Membership();

      private:
        std::weak_ptr<SdkThreads> owner_;
        pid_t tid_ = 0;
    };

    /**
     * Called first thing on a new SDK thread: names it (top -H, debuggers), pins it, applies the priority set for
     * its kind. Keep the membership for the thread's lifetime.
     */
    [[nodiscard]] Membership Enter(ClientThread kind, const char *name);

    /** Remembers the priority of a kind and applies it to its running threads (refusals are logged). */
    void SetPriority(ClientThread kind, int32_t nice);
    /** The priority set for a kind, if any. */
    std::optional<int32_t> Priority(ClientThread kind) const;

    /** The calling thread's id, as setpriority(2) and /proc/self/task name it. */
    static pid_t CurrentThreadId();

  private:
    void Leave(pid_t tid);
    void Apply(pid_t tid, ClientThread kind, int32_t nice);

    const std::optional<uint64_t> affinity_;
    const RefusalLog log_;
    mutable std::mutex mutex_;
    std::map<ClientThread, int32_t> priorities_;
    std::map<pid_t, ClientThread> running_;
};

}  // namespace svcpp::core
