// Handle boxes: what a C handle's `opaque` points to.
//
// A handle's `opaque` is not a pointer but an id the registry hands out once and never reuses, so
// validating a handle never dereferences anything: a zeroed, dropped, stale (a copy of a dropped handle)
// or foreign handle is rejected with InvalidHandle instead of crashing, and a stale handle can never
// alias a new object that happens to get the freed memory. A box carries its type's tag (wrong-type handles are
// rejected too), a reference count (a call in flight keeps the box alive while another thread drops it) and, for value
// objects, a mutex so one object used from two threads is never torn.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>

#include "runtime/abi_error.hpp"
#include "support/guard.hpp"

namespace svcpp::capi {

/**
 * The lock of a registry shard and of a value object: every section it guards is short (a hash probe and a reference
 * count; a field read, write or copy), far shorter than a pthread mutex's own bookkeeping, so a test-and-set lock that
 * yields the core after a short spin (the holder was preempted) is cheaper on the per-call path: with it, a string
 * getter through N-API went from ~107 to ~100 ns of CPU (bench/sync-call.ts).
 */
class SpinLock {
  public:
    void lock() noexcept {
        for (int spins = 0; locked_.exchange(true, std::memory_order_acquire); ++spins) {
            if (spins >= 64) std::this_thread::yield();
        }
    }
    void unlock() noexcept { locked_.store(false, std::memory_order_release); }

  private:
    std::atomic<bool> locked_{false};
};

/** A unique address per type; the tag stored in every box of that type. */
template <class T>
const void *TagOf() {
    static const char tag = 0;
    return &tag;
}

struct BoxBase {
    explicit BoxBase(const void *t) : tag(t) {}
    virtual ~BoxBase() = default;
    const void *tag;
    std::atomic<int> refs{1};  // the handle's own reference
    const void *id = nullptr;  // the handle value (set by registry::Add)
};

template <class T>
struct Box final : BoxBase {
    template <class... A>
    explicit Box(A &&...args) : BoxBase(TagOf<T>()), value(std::forward<A>(args)...) {}
    SpinLock mutex;
    T value;
};

namespace registry {
/** Registers the box and returns its handle value, an id never handed out before. */
const void *Add(BoxBase *box);
/** Removes the box from the registry (the handle's reference is then released by the caller). */
bool Remove(BoxBase *box);
/** The live box whose handle value is `opaque` and whose type has this tag, with one more reference; nullptr when there
 * is none. */
BoxBase *Acquire(const void *opaque, const void *tag);
void Release(BoxBase *box);
}  // namespace registry

/** A counted reference to a live box, taken from a handle. Throws InvalidHandle when there is none. */
template <class T>
class Ref {
  public:
    Ref(const void *opaque, const char *what) {
        box_ = static_cast<Box<T> *>(registry::Acquire(opaque, TagOf<T>()));
        if (!box_) ThrowAbiError(core::Errc::InvalidHandle, what, " is not a live handle of this type");
    }
    Ref(const Ref &) = delete;
    Ref &operator=(const Ref &) = delete;
    ~Ref() { registry::Release(box_); }
    Box<T> &box() const { return *box_; }

  private:
    Box<T> *box_;
};

/** Reads or writes a value object under its lock. */
template <class T>
class Locked {
  public:
    Locked(const void *opaque, const char *what) : ref_(opaque, what), lock_(ref_.box().mutex) {}
    T &operator*() { return ref_.box().value; }
    T *operator->() { return &ref_.box().value; }

  private:
    Ref<T> ref_;
    std::lock_guard<SpinLock> lock_;
};

/** Creates a box holding value and returns its handle value (registered, one reference). */
template <class T>
void *NewBox(T value) {
    return const_cast<void *>(registry::Add(new Box<T>(std::move(value))));
}

}  // namespace svcpp::capi
