// The handle registry (native/capi/support/handles.cpp): every live handle is found with its own box, every removed or
// never-issued one is not, whatever order handles come and go in — the open-addressing tables' growth and backward-
// shift removal keep every entry reachable.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "support/handles.hpp"

namespace svcpp::capi {
namespace {

struct Item {
    int value = 0;
};

TEST(HandleRegistry, FindsLiveAndRefusesRemovedHandlesInAnyOrder) {
    std::mt19937 random(12345);
    std::vector<BoxBase *> live;
    std::vector<const void *> removed;
    for (int round = 0; round < 20000; ++round) {
        if (live.empty() || random() % 3 != 0) {
            auto *box = new Box<Item>();
            registry::Add(box);
            live.push_back(box);
        } else {
            const size_t at = random() % live.size();
            BoxBase *box = live[at];
            live.erase(live.begin() + static_cast<std::ptrdiff_t>(at));
            ASSERT_TRUE(registry::Remove(box));
            EXPECT_FALSE(registry::Remove(box));  // once only
            removed.push_back(box->id);
            registry::Release(box);  // the handle's own reference: frees it
        }
    }
    for (BoxBase *box : live) {
        BoxBase *found = registry::Acquire(box->id, TagOf<Item>());
        ASSERT_EQ(found, box);
        registry::Release(found);
        EXPECT_EQ(registry::Acquire(box->id, TagOf<int>()), nullptr);  // wrong type
    }
    for (const void *id : removed) EXPECT_EQ(registry::Acquire(id, TagOf<Item>()), nullptr);
    const auto never = reinterpret_cast<uintptr_t>(live.empty() ? removed.back() : live.back()->id) + 2 * 1000003;
    EXPECT_EQ(registry::Acquire(reinterpret_cast<const void *>(never), TagOf<Item>()), nullptr);
    EXPECT_EQ(registry::Acquire(reinterpret_cast<const void *>(std::uintptr_t{0x5C0000002}), TagOf<Item>()),
              nullptr);  // even
    EXPECT_EQ(registry::Acquire(nullptr, TagOf<Item>()), nullptr);
    for (BoxBase *box : live) {
        ASSERT_TRUE(registry::Remove(box));
        registry::Release(box);
    }
}

}  // namespace
}  // namespace svcpp::capi
