// What the WASAPI backend's files share of COM and Windows: the apartment each thread needs, UTF-16 ↔ UTF-8 for device
// ids and names, and HRESULTs as text for the errors the backend reports. Windows only (wasapi_*_windows.cpp).
#pragma once
#include <windows.h>
#include <objbase.h>

#include <string>
#include <string_view>

#include "per_thread/per_thread.hpp"

namespace svcpp::core::voice::wasapi {

/**
 * The multithreaded apartment for the calling thread for this object's life. A caller's thread that is already a
 * single-threaded apartment (an Electron or UI thread) stays one: WASAPI's objects are agile (they aggregate the
 * free-threaded marshaler), so using them from there is still correct, and we must not change the host's apartment.
 */
class ComScope {
  public:
    ComScope() : initialized_(SUCCEEDED(CoInitializeEx(nullptr, COINIT_MULTITHREADED))) {}
    ~ComScope() {
        if (initialized_) CoUninitialize();
    }
    ComScope(const ComScope &) = delete;
    ComScope &operator=(const ComScope &) = delete;

  private:
    bool initialized_;
};

/**
 * Joins the MTA for the rest of the calling thread's life: for the threads the SDK owns (the audio thread, the
 * backend's notifier), which call into WASAPI on every frame and must not pay CoInitializeEx each time.
 */
inline void JoinMtaForThisThread() { threads::PerThread<ComScope>(); }

inline std::string Utf8(const wchar_t *text) {
    if (!text) return {};
    const int length = WideCharToMultiByte(CP_UTF8, 0, text, -1, nullptr, 0, nullptr, nullptr);
    if (length <= 1) return {};
    std::string out(static_cast<size_t>(length), '\0');
    WideCharToMultiByte(CP_UTF8, 0, text, -1, out.data(), length, nullptr, nullptr);
    out.resize(static_cast<size_t>(length - 1));
    return out;
}

inline std::wstring Wide(std::string_view text) {
    if (text.empty()) return {};
    const int length = MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0);
    if (length <= 0) return {};
    std::wstring out(static_cast<size_t>(length), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), out.data(), length);
    return out;
}

/** "WASAPI: <what> (hr 0x88890004)": the code is what a Windows developer searches for. */
inline std::string Failure(std::string_view what, HRESULT hr) {
    char code[16];
    wsprintfA(code, "0x%08lX", static_cast<unsigned long>(hr));
    return "WASAPI: " + std::string(what) + " (hr " + code + ")";
}

}  // namespace svcpp::core::voice::wasapi
