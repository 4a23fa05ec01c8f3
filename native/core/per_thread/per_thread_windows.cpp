#include "per_thread/per_thread.hpp"

#include <windows.h>

#include <cstdlib>

namespace svcpp::core::threads {

namespace {

/** What a thread's fiber-local slot holds: its value and how to destroy it (FLS callbacks receive only the value). */
struct Owned {
    void *value;
    PerThreadSlot::Destroy destroy;
};

void NTAPI DestroyOwned(void *data) {
    // Windows calls this as the thread ends (and for the slots still set when the DLL unloads).
    auto *owned = static_cast<Owned *>(data);
    if (!owned) return;
    owned->destroy(owned->value);
    delete owned;
}

}  // namespace

PerThreadSlot::PerThreadSlot(Make make, Destroy destroy)
    : make_(make), destroy_(destroy), index_(FlsAlloc(DestroyOwned)) {
    if (index_ == FLS_OUT_OF_INDEXES) std::abort();  // 4080 slots per process: running out is a bug, not a state
}

void *PerThreadSlot::Get() {
    if (auto *owned = static_cast<Owned *>(FlsGetValue(index_))) return owned->value;
    auto *owned = new Owned{make_(), destroy_};
    FlsSetValue(index_, owned);
    return owned->value;
}

}  // namespace svcpp::core::threads
