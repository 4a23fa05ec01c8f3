#include "support/handles.hpp"

#include <array>
#include <unordered_map>

namespace svcpp::capi::registry {
namespace {
// The registry is sharded by handle id: every call validates its handles here, so calls on different objects from
// different threads take different locks, and a lookup is one uncontended lock and one hash probe in a small map.
// Nothing here allocates except Add (the map's node); Acquire and Release are the per-call hot path.
constexpr size_t kShards = 64;

struct Shard {
    SpinLock mutex;
    std::unordered_map<uintptr_t, BoxBase *> live;
};

std::array<Shard, kShards> &Shards() {
    static auto *shards = new std::array<Shard, kShards>();  // never destroyed: handles may outlive statics
    return *shards;
}

// Ids step by 2 from an odd start (a handle value never looks like a small integer or an aligned pointer), so the
// shard is taken from the bits above the lowest; consecutive handles land in consecutive shards.
Shard &ShardOf(uintptr_t id) { return Shards()[(id >> 1) % kShards]; }

// 2^64 handles are never exhausted.
std::atomic<uintptr_t> nextId{0x5C0000001};
}  // namespace

const void *Add(BoxBase *box) {
    const uintptr_t id = nextId.fetch_add(2, std::memory_order_relaxed);
    box->id = reinterpret_cast<const void *>(id);
    Shard &shard = ShardOf(id);
    std::lock_guard lock(shard.mutex);
    shard.live.emplace(id, box);
    return box->id;
}

bool Remove(BoxBase *box) {
    const auto id = reinterpret_cast<uintptr_t>(box->id);
    Shard &shard = ShardOf(id);
    std::lock_guard lock(shard.mutex);
    return shard.live.erase(id) == 1;
}

BoxBase *Acquire(const void *opaque, const void *tag) {
    if (!opaque) return nullptr;
    const auto id = reinterpret_cast<uintptr_t>(opaque);
    Shard &shard = ShardOf(id);
    std::lock_guard lock(shard.mutex);
    auto it = shard.live.find(id);
    if (it == shard.live.end()) return nullptr;
    BoxBase *box = it->second;
    if (box->tag != tag) return nullptr;
    box->refs.fetch_add(1, std::memory_order_relaxed);
    return box;
}

void Release(BoxBase *box) {
    if (box && box->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete box;
}

}  // namespace svcpp::capi::registry
