// A registered host callback: the invocable plus ownership of the host's user data.
//
// The C ABI hands the core (fn, userDataFree, userData); the marshalling layer turns fn into a C++
// callable and userData into a UserData owner. Destroying the owner calls userDataFree exactly once, so
// "free when the registration ends" is simply "destroy the Callback". The core only destroys Callbacks on
// threads that are inside an svcpp call (pump, setter, Drop), never on its own threads.
#pragma once
#include <functional>
#include <memory>
#include <utility>

namespace svcpp::core {

using FreeFn = void (*)(void *);

class UserData {
  public:
    UserData() = default;
    UserData(FreeFn free, void *ptr) : free_(free), ptr_(ptr) {}
    UserData(const UserData &) = delete;
    UserData &operator=(const UserData &) = delete;
    UserData(UserData &&other) noexcept : free_(std::exchange(other.free_, nullptr)), ptr_(other.ptr_) {}
    UserData &operator=(UserData &&other) noexcept {
        if (this != &other) {
            Release();
            free_ = std::exchange(other.free_, nullptr);
            ptr_ = other.ptr_;
        }
        return *this;
    }
    ~UserData() { Release(); }

    /** Gives the user data back to the host without freeing it (a registration the core rejected). */
    void Disown() { free_ = nullptr; }

  private:
    void Release() {
        if (auto free = std::exchange(free_, nullptr)) free(ptr_);
    }
    FreeFn free_ = nullptr;
    void *ptr_ = nullptr;
};

template <class Sig>
struct Callback {
    std::function<Sig> fn;
    UserData owner;

    explicit operator bool() const { return static_cast<bool>(fn); }
};

/** Registrations are shared so a pump can invoke one without holding a lock while another thread removes it. */
template <class Sig>
using SharedCallback = std::shared_ptr<Callback<Sig>>;

template <class Sig>
SharedCallback<Sig> Share(Callback<Sig> &&cb) {
    return cb ? std::make_shared<Callback<Sig>>(std::move(cb)) : nullptr;
}

}  // namespace svcpp::core
