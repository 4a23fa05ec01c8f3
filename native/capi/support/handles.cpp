#include "support/handles.hpp"

#include <unordered_map>

namespace svcpp::capi::registry {
namespace {
// One map guarded by one mutex: an uncontended lock plus a hash lookup per call (bench/sync-call.ts
// measures the whole call). Shard it if profiles ever show contention.
std::mutex &Mutex() {
    static std::mutex m;
    return m;
}
std::unordered_map<uintptr_t, BoxBase *> &Live() {
    static auto *live = new std::unordered_map<uintptr_t, BoxBase *>();  // never destroyed: handles may outlive statics
    return *live;
}
// Ids count up from an odd start so a handle value never looks like a small integer or an aligned pointer;
// 2^64 handles are never exhausted.
uintptr_t nextId = 0x5C0000001;
}  // namespace

const void *Add(BoxBase *box) {
    std::lock_guard lock(Mutex());
    const uintptr_t id = nextId;
    nextId += 2;
    box->id = reinterpret_cast<const void *>(id);
    Live().emplace(id, box);
    return box->id;
}

bool Remove(BoxBase *box) {
    std::lock_guard lock(Mutex());
    return Live().erase(reinterpret_cast<uintptr_t>(box->id)) == 1;
}

BoxBase *Acquire(const void *opaque, const void *tag) {
    if (!opaque) return nullptr;
    std::lock_guard lock(Mutex());
    auto it = Live().find(reinterpret_cast<uintptr_t>(opaque));
    if (it == Live().end()) return nullptr;
    BoxBase *box = it->second;
    if (box->tag != tag) return nullptr;
    box->refs.fetch_add(1, std::memory_order_relaxed);
    return box;
}

void Release(BoxBase *box) {
    if (box && box->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete box;
}

}  // namespace svcpp::capi::registry
