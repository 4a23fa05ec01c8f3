#include "support/handles.hpp"

#include <array>
#include <vector>

namespace svcpp::capi::registry {
namespace {
// The registry is sharded by handle id: every call validates its handles here, so calls on different objects from
// different threads take different locks, and a lookup is one uncontended lock and one probe of a small table.
// Nothing here allocates except Add (when a shard's table grows); Acquire and Release are the per-call hot path.
constexpr size_t kShards = 64;

/**
 * One shard's live handles: an open-addressing table (linear probing, power-of-two size, at most half full) keyed by
 * the handle id. A handle's home slot is its id with the shard bits shifted out, so the ids one shard hands out in a
 * row (128 apart) take consecutive slots and a lookup is a mask, not the division of a node-based hash map by its
 * prime bucket count (most of a sync call's registry time). Removal shifts the following entries back (no tombstones).
 */
class HandleTable {
  public:
    BoxBase *Find(uintptr_t id) const {
        if (slots_.empty()) return nullptr;
        for (size_t i = Home(id);; i = (i + 1) & Mask()) {
            if (slots_[i].id == id) return slots_[i].box;
            if (slots_[i].id == 0) return nullptr;
        }
    }

    void Insert(uintptr_t id, BoxBase *box) {
        if ((count_ + 1) * 2 > slots_.size()) Grow();
        size_t i = Home(id);
        while (slots_[i].id != 0) i = (i + 1) & Mask();
        slots_[i] = Slot{id, box};
        ++count_;
    }

    bool Erase(uintptr_t id) {
        if (slots_.empty()) return false;
        size_t i = Home(id);
        while (slots_[i].id != id) {
            if (slots_[i].id == 0) return false;
            i = (i + 1) & Mask();
        }
        // Backward shift: move each following entry of the run into the hole when the hole lies between its home and
        // where it sits (cyclically), so every entry stays reachable from its home without tombstones.
        for (size_t j = (i + 1) & Mask(); slots_[j].id != 0; j = (j + 1) & Mask()) {
            const size_t home = Home(slots_[j].id);
            const bool homeInHoleToJ = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (homeInHoleToJ) continue;
            slots_[i] = slots_[j];
            i = j;
        }
        slots_[i] = Slot{};
        --count_;
        return true;
    }

  private:
    struct Slot {
        uintptr_t id = 0;  // 0: empty (ids are odd)
        BoxBase *box = nullptr;
    };

    size_t Mask() const { return slots_.size() - 1; }
    size_t Home(uintptr_t id) const { return (id >> 7) & Mask(); }  // bits 1..6 chose the shard (ShardOf)

    void Grow() {
        std::vector<Slot> old = std::move(slots_);
        slots_.assign(old.empty() ? 16 : old.size() * 2, Slot{});
        count_ = 0;
        for (const Slot &slot : old) {
            if (slot.id != 0) Insert(slot.id, slot.box);
        }
    }

    std::vector<Slot> slots_;
    size_t count_ = 0;
};

struct Shard {
    SpinLock mutex;
    HandleTable live;
};

// Never destroyed (handles may outlive statics); built before any handle exists, so the hot path reads a plain pointer
// instead of checking a function-local static's guard on every call.
std::array<Shard, kShards> *const shards = new std::array<Shard, kShards>();

// Ids step by 2 from an odd start (a handle value never looks like a small integer or an aligned pointer), so the
// shard is taken from the bits above the lowest; consecutive handles land in consecutive shards.
Shard &ShardOf(uintptr_t id) { return (*shards)[(id >> 1) % kShards]; }

// 2^64 handles are never exhausted.
std::atomic<uintptr_t> nextId{0x5C0000001};
}  // namespace

const void *Add(BoxBase *box) {
    const uintptr_t id = nextId.fetch_add(2, std::memory_order_relaxed);
    box->id = reinterpret_cast<const void *>(id);
    Shard &shard = ShardOf(id);
    std::lock_guard lock(shard.mutex);
    shard.live.Insert(id, box);
    return box->id;
}

bool Remove(BoxBase *box) {
    const auto id = reinterpret_cast<uintptr_t>(box->id);
    Shard &shard = ShardOf(id);
    std::lock_guard lock(shard.mutex);
    return shard.live.Erase(id);
}

BoxBase *Acquire(const void *opaque, const void *tag) {
    if (!opaque) return nullptr;
    const auto id = reinterpret_cast<uintptr_t>(opaque);
    // An even value was never handed out (ids are odd) and would read as an empty slot's key: refused up front.
    if ((id & 1) == 0) return nullptr;
    Shard &shard = ShardOf(id);
    std::lock_guard lock(shard.mutex);
    BoxBase *box = shard.live.Find(id);
    if (!box || box->tag != tag) return nullptr;
    box->refs.fetch_add(1, std::memory_order_relaxed);
    return box;
}

void Release(BoxBase *box) {
    if (box && box->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete box;
}

}  // namespace svcpp::capi::registry
