#include "handle_arena.hpp"

#include <algorithm>

namespace svcpp_node {

void HandleArena::Grow() {
    auto slots = std::make_unique<Slot[]>(kChunkSlots);
    for (size_t i = 0; i < kChunkSlots; ++i) {
        slots[i] = Slot{nullptr, nullptr, i + 1 < kChunkSlots ? &slots[i + 1] : freeHead_, kFree};
    }
    freeHead_ = &slots[0];
    const auto begin = reinterpret_cast<uintptr_t>(slots.get());
    Chunk chunk{begin, begin + kChunkSlots * sizeof(Slot), std::move(slots)};
    auto at = std::upper_bound(chunks_.begin(), chunks_.end(), begin,
                               [](uintptr_t b, const Chunk &c) { return b < c.begin; });
    chunks_.insert(at, std::move(chunk));
}

void *HandleArena::Allocate(uint32_t type, void *data, napi_finalize finalize) {
    if (!freeHead_) Grow();
    Slot *slot = freeHead_;
    freeHead_ = slot->nextFree;
    *slot = Slot{data, finalize, nullptr, type};
    ++refs_;
    return slot;
}

void *HandleArena::Find(const void *p, uint32_t type) const {
    const auto address = reinterpret_cast<uintptr_t>(p);
    // The last chunk starting at or below the address (nearly always the only one).
    auto after = std::upper_bound(chunks_.begin(), chunks_.end(), address,
                                  [](uintptr_t a, const Chunk &c) { return a < c.begin; });
    if (after == chunks_.begin()) return nullptr;
    const Chunk &chunk = *(after - 1);
    if (address >= chunk.end || (address - chunk.begin) % sizeof(Slot) != 0) return nullptr;
    const Slot *slot = static_cast<const Slot *>(p);
    return slot->type == type ? slot->data : nullptr;
}

void HandleArena::Abandon(void *p) {
    static_cast<Slot *>(p)->finalize = nullptr;
    Finalize(nullptr, p, this);
}

void HandleArena::Finalize(napi_env env, void *p, void *hint) {
    auto *arena = static_cast<HandleArena *>(hint);
    auto *slot = static_cast<Slot *>(p);
    const napi_finalize finalize = slot->finalize;
    void *data = slot->data;
    *slot = Slot{nullptr, nullptr, arena->freeHead_, kFree};
    arena->freeHead_ = slot;
    if (finalize) finalize(env, data, nullptr);
    arena->Unref();
}

}  // namespace svcpp_node
