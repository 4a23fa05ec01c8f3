#include "per_thread/per_thread.hpp"

#include <atomic>
#include <vector>

namespace svcpp::core::threads {

namespace {

std::atomic<unsigned long> nextIndex{0};

/** This thread's values, one per slot index; thread_local destructors are sound on POSIX systems. */
struct ThreadValues {
    struct Value {
        void *value = nullptr;
        PerThreadSlot::Destroy destroy = nullptr;
    };
    std::vector<Value> values;
    ~ThreadValues() {
        for (auto &v : values) {
            if (v.value) v.destroy(v.value);
        }
    }
};

thread_local ThreadValues threadValues;

}  // namespace

PerThreadSlot::PerThreadSlot(Make make, Destroy destroy) : make_(make), destroy_(destroy), index_(nextIndex++) {}

void *PerThreadSlot::Get() {
    auto &values = threadValues.values;
    if (values.size() <= index_) values.resize(index_ + 1);
    auto &v = values[index_];
    if (!v.value) v = {make_(), destroy_};
    return v.value;
}

}  // namespace svcpp::core::threads
