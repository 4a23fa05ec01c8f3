#include "voice/media/pulse_library.hpp"

#include <dlfcn.h>

namespace svcpp::core::voice {

namespace {

struct Loaded {
    PulseLibrary library;
    std::string error;  // empty when loaded
};

template <typename Fn>
bool Resolve(void *handle, Fn &fn, const char *name, std::string &error) {
    fn = reinterpret_cast<Fn>(dlsym(handle, name));
    if (!fn && error.empty()) error = std::string("PulseAudio: missing function ") + name;
    return fn != nullptr;
}

Loaded Load() {
    Loaded loaded;
    std::string &error = loaded.error;
    // RTLD_LOCAL: pulse's symbols must not interpose with the host's; RTLD_NOW: fail here, not at first call.
    void *pulse = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!pulse) {
        error = std::string("PulseAudio: cannot load libpulse.so.0: ") + dlerror();
        return loaded;
    }
    void *simple = dlopen("libpulse-simple.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!simple) {
        error = std::string("PulseAudio: cannot load libpulse-simple.so.0: ") + dlerror();
        return loaded;
    }
    PulseLibrary &l = loaded.library;
#define SVCPP_RESOLVE(handle, name) Resolve(handle, l.name, #name, error)
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_new);
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_free);
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_start);
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_stop);
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_lock);
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_unlock);
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_wait);
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_signal);
    SVCPP_RESOLVE(pulse, pa_threaded_mainloop_get_api);
    SVCPP_RESOLVE(pulse, pa_context_new);
    SVCPP_RESOLVE(pulse, pa_context_unref);
    SVCPP_RESOLVE(pulse, pa_context_connect);
    SVCPP_RESOLVE(pulse, pa_context_disconnect);
    SVCPP_RESOLVE(pulse, pa_context_get_state);
    SVCPP_RESOLVE(pulse, pa_context_errno);
    SVCPP_RESOLVE(pulse, pa_context_set_state_callback);
    SVCPP_RESOLVE(pulse, pa_context_set_subscribe_callback);
    SVCPP_RESOLVE(pulse, pa_context_subscribe);
    SVCPP_RESOLVE(pulse, pa_context_get_server_info);
    SVCPP_RESOLVE(pulse, pa_context_get_sink_info_list);
    SVCPP_RESOLVE(pulse, pa_context_get_source_info_list);
    SVCPP_RESOLVE(pulse, pa_operation_get_state);
    SVCPP_RESOLVE(pulse, pa_operation_unref);
    SVCPP_RESOLVE(pulse, pa_strerror);
    SVCPP_RESOLVE(simple, pa_simple_new);
    SVCPP_RESOLVE(simple, pa_simple_free);
    SVCPP_RESOLVE(simple, pa_simple_read);
    SVCPP_RESOLVE(simple, pa_simple_write);
#undef SVCPP_RESOLVE
    return loaded;
}

}  // namespace

const PulseLibrary *LoadPulseLibrary(std::string *error) {
    static const Loaded loaded = Load();  // thread-safe once; the handles stay open for the process's life
    if (!loaded.error.empty()) {
        if (error) *error = loaded.error;
        return nullptr;
    }
    return &loaded.library;
}

}  // namespace svcpp::core::voice
