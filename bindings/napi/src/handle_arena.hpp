// HandleArena: where the externals of one addon instance point. A JS handle is a napi external whose pointer is a
// slot of this arena; the slot names the handle's type and holds the native box. Unwrapping checks that the
// pointer lies on a slot boundary inside one of the arena's chunks and that the slot's type is the one expected:
// a foreign external (another addon's, koffi's pointers) or one of ours of another type is refused before anything
// it points to is read, as a napi type tag would — but a tag check is a private-property lookup inside V8 (about a
// tenth of a synchronous call), where this is a comparison or two (bench/sync-call.ts).
#pragma once

#include <napi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace svcpp_node {

class HandleArena {
  public:
    /**
     * The arena of a new addon instance. It lives while the instance does or any of its slots is held by an external
     * (an environment's teardown may finalize externals after the instance data): Release() by the owner.
     */
    static HandleArena *Create() { return new HandleArena(); }
    void Release() { Unref(); }

    /** A slot of type `type` holding `data`; the external made for it calls `finalize(env, data)` when collected. */
    void *Allocate(uint32_t type, void *data, napi_finalize finalize);
    /** The data of `slot` when it is a live slot of this arena of type `type`; nullptr otherwise. */
    void *Find(const void *slot, uint32_t type) const;
    /** Frees a slot whose external could not be made, without running its finalize (the caller still owns data). */
    void Abandon(void *slot);
    /** The external finalizer of every slot: runs the slot's finalize, then frees the slot. */
    static void Finalize(napi_env env, void *slot, void *arena);

  private:
    struct Slot {
        void *data;
        napi_finalize finalize;
        Slot *nextFree;  // in the free list
        uint32_t type;   // kFree when unused
    };
    static constexpr uint32_t kFree = UINT32_MAX;
    static constexpr size_t kChunkSlots = 1024;
    /** A chunk's slots and their byte range; a chunk is never freed before the arena. */
    struct Chunk {
        uintptr_t begin, end;
        std::unique_ptr<Slot[]> slots;
    };

    HandleArena() = default;
    void Unref() {
        if (--refs_ == 0) delete this;
    }
    void Grow();

    std::vector<Chunk> chunks_;  // sorted by address, for Find's binary search (one chunk: one comparison pair)
    Slot *freeHead_ = nullptr;
    size_t refs_ = 1;  // the owner's, plus one per live slot
};

}  // namespace svcpp_node
