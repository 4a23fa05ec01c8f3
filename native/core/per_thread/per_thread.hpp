// PerThread<T>(): the calling thread's own T, made on the thread's first use and destroyed as the thread ends — what
// `thread_local T` says, for a T with a destructor, on every system svcpp ships for.
//
// Why not thread_local: MinGW-w64's GCC implements thread_local with emulated TLS, whose per-thread block is freed
// by a winpthreads key destructor that may run before the one that runs the thread_local destructors — which then
// read freed memory (the core crashed in a JSON parser's destructor as an I/O thread ended). Here the object lives on
// the heap and only a pointer is kept per thread, by the system: a POSIX thread_local list
// (per_thread/per_thread_posix.cpp) or a Windows fiber-local slot, whose callback Windows runs at thread exit
// (per_thread/per_thread_windows.cpp).
#pragma once

namespace svcpp::core::threads {

/** One per-thread slot; each thread's value is made by `make` and destroyed by `destroy` when that thread ends. */
class PerThreadSlot {
  public:
    using Make = void *(*)();
    using Destroy = void (*)(void *);
    PerThreadSlot(Make make, Destroy destroy);
    PerThreadSlot(const PerThreadSlot &) = delete;
    PerThreadSlot &operator=(const PerThreadSlot &) = delete;

    /** The calling thread's value, made now if this thread has none yet. */
    void *Get();

  private:
    Make make_;
    Destroy destroy_;
    unsigned long index_;  // the system's slot (a Windows FLS index) or this slot's place in the thread's list
};

/**
 * The calling thread's T of the slot named by `Tag` (T itself by default): two uses of one type for different things
 * each name a tag of their own, or they would share one object per thread.
 */
template <typename T, typename Tag = T>
T &PerThread() {
    static PerThreadSlot slot([]() -> void * { return new T(); }, [](void *value) { delete static_cast<T *>(value); });
    return *static_cast<T *>(slot.Get());
}

}  // namespace svcpp::core::threads
