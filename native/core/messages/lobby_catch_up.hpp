// Catching up on lobby chat after a new gateway session (native/SEMANTICS.md "Delivery across drops and restarts").
// When a reconnect cannot resume (the platform restarted, the session expired), the lobby messages sent in the gap
// were never dispatched. This book-keeping remembers, per lobby, the newest message the host was given, so the
// client can fetch what followed it (GET /lobbies/{id}/messages?after=, platform/PROTOCOL.md §10.5) and deliver
// each of those messages once — a message that arrives both live and in a fetched page is delivered the first time
// only. Pure state, no I/O; used on the client's I/O thread only.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace svcpp::core::messages {

class LobbyCatchUp {
  public:
    /** One page to fetch: the messages of `lobbyId` that follow `after`, for the session numbered `epoch`. */
    struct Fetch {
        uint64_t lobbyId = 0;
        uint64_t after = 0;
        uint64_t epoch = 0;
        bool operator==(const Fetch &) const = default;
    };

    /** A lobby message about to reach the host (live or fetched): false when the host already had it. */
    bool Admit(uint64_t lobbyId, uint64_t messageId);

    /** The first READY of a Connect: nothing from before it is owed; pages still in flight become stale. */
    void Reset();

    /**
     * A READY after a gap, with the lobbies it lists: one fetch per lobby the host has had a message of, starting
     * after the newest one (or, when an earlier catch-up was cut short, where that one had got to). Lobbies the
     * READY no longer lists are forgotten; pages of the earlier session become stale.
     */
    std::vector<Fetch> BeginGap(const std::vector<uint64_t> &lobbyIds);

    /** Whether a page still belongs to the current session (a stale page is ignored, its messages not delivered). */
    bool IsCurrent(const Fetch &fetch) const;

    /**
     * A page of `fetch` was delivered: `newestId` is the newest id in it (0 when empty) and `full` whether it held
     * as many messages as asked (so more may follow). Returns the next page to fetch, or nothing when the lobby has
     * caught up.
     */
    std::optional<Fetch> PageDone(const Fetch &fetch, uint64_t newestId, bool full);

    /** The lobby's catch-up failed for good: live messages are delivered as before, nothing more is fetched. */
    void Abandon(const Fetch &fetch);

  private:
    struct Lobby {
        uint64_t newest = 0;       // newest message id given to the host
        uint64_t cursor = 0;       // while catching up: every message up to this id has been fetched
        uint64_t fetchedUpTo = 0;  // the newest id a fetched page held (live copies of older ones are duplicates)
        bool catchingUp = false;
        // Ids given to the host that a page or a late live copy may bring again: those above the catch-up's start
        // while it runs, those up to fetchedUpTo afterwards. Bounded by the number of messages of one gap.
        std::set<uint64_t> seen;
    };
    void Finish(Lobby &lobby);

    std::map<uint64_t, Lobby> lobbies_;
    uint64_t epoch_ = 0;
};

}  // namespace svcpp::core::messages
