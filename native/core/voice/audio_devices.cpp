#include "voice/audio_devices.hpp"

#include "voice/media/system_audio_backend.hpp"

#include <algorithm>

namespace svcpp::core::voice {

namespace {

bool IsFileId(const std::string &id) {
    return id.size() > std::string(kFileDevicePrefix).size() && id.rfind(kFileDevicePrefix, 0) == 0;
}
std::string FilePath(const std::string &id) { return id.substr(std::string(kFileDevicePrefix).size()); }
bool IsDefaultId(const std::string &id) { return id.empty() || id == kDefaultAudioDeviceId; }

AudioDevice NullDevice(bool isDefault) {
    AudioDevice device;
    device.id = kNullDeviceId;
    device.name = "No audio device (silence)";
    device.isDefault = isDefault;
    return device;
}

}  // namespace

AudioDevice AudioDevices::ToDevice(const AudioDeviceInfo &info) {
    AudioDevice device;
    device.id = info.id;
    device.name = info.name;
    device.isDefault = info.isDefault;
    return device;
}

AudioBackend *AudioDevices::Pulse() {
    std::lock_guard lock(mutex_);
    if (!pulseTried_) {
        pulseTried_ = true;
        pulse_ = CreateSystemAudioBackend();
    }
    return pulse_.get();
}

std::vector<AudioDevice> AudioDevices::Inputs() {
    std::vector<AudioDevice> out;
    AudioBackend *pulse = Pulse();
    if (pulse) {
        for (const auto &info : pulse->InputDevices()) out.push_back(ToDevice(info));
    }
    out.push_back(NullDevice(!pulse));
    return out;
}

std::vector<AudioDevice> AudioDevices::Outputs() {
    std::vector<AudioDevice> out;
    AudioBackend *pulse = Pulse();
    if (pulse) {
        for (const auto &info : pulse->OutputDevices()) out.push_back(ToDevice(info));
    }
    out.push_back(NullDevice(!pulse));
    return out;
}

bool AudioDevices::IsKnownInput(const std::string &id) {
    if (IsDefaultId(id) || id == kNullDeviceId || IsFileId(id)) return true;
    const auto list = Inputs();
    return std::any_of(list.begin(), list.end(), [&](const AudioDevice &d) { return d.id == id; });
}

bool AudioDevices::IsKnownOutput(const std::string &id) {
    if (IsDefaultId(id) || id == kNullDeviceId || IsFileId(id)) return true;
    const auto list = Outputs();
    return std::any_of(list.begin(), list.end(), [&](const AudioDevice &d) { return d.id == id; });
}

AudioDevice AudioDevices::DescribeInput(const std::string &id) {
    if (IsFileId(id)) return AudioDevice{id, "WAV file " + FilePath(id), false};
    if (id == kNullDeviceId || (IsDefaultId(id) && !Pulse())) return NullDevice(!Pulse());
    for (auto &device : Inputs()) {
        if (device.id == id || (IsDefaultId(id) && device.isDefault)) return device;
    }
    return NullDevice(false);
}

AudioDevice AudioDevices::DescribeOutput(const std::string &id) {
    if (IsFileId(id)) return AudioDevice{id, "WAV file " + FilePath(id), false};
    if (id == kNullDeviceId || (IsDefaultId(id) && !Pulse())) return NullDevice(!Pulse());
    for (auto &device : Outputs()) {
        if (device.id == id || (IsDefaultId(id) && device.isDefault)) return device;
    }
    return NullDevice(false);
}

OpenedStream<AudioCaptureStream> AudioDevices::OpenCapture(const std::string &id, std::string *error) {
    OpenedStream<AudioCaptureStream> opened;
    if (IsFileId(id)) {
        WavFileBackendOptions options;
        options.inputPath = FilePath(id);
        opened.backend = CreateWavFileAudioBackend(options, error);
    } else if (id == kNullDeviceId || (IsDefaultId(id) && !Pulse())) {
        opened.backend = CreateNullAudioBackend();
    } else if (AudioBackend *pulse = Pulse()) {
        opened.stream = pulse->OpenCapture(IsDefaultId(id) ? std::string(kDefaultAudioDeviceId) : id);
        opened.clockPaced = pulse->IsClockPaced();
        if (!opened.stream && error) *error = "PulseAudio could not open input " + id;
        return opened;
    }
    if (opened.backend) {
        opened.stream = opened.backend->OpenCapture(kDefaultAudioDeviceId);
        opened.clockPaced = opened.backend->IsClockPaced();
    }
    if (!opened.stream && error && error->empty()) *error = "cannot open input device " + id;
    return opened;
}

OpenedStream<AudioPlaybackStream> AudioDevices::OpenPlayback(const std::string &id, std::string *error) {
    OpenedStream<AudioPlaybackStream> opened;
    if (IsFileId(id)) {
        WavFileBackendOptions options;
        options.outputPath = FilePath(id);
        opened.backend = CreateWavFileAudioBackend(options, error);
    } else if (id == kNullDeviceId || (IsDefaultId(id) && !Pulse())) {
        opened.backend = CreateNullAudioBackend();
    } else if (AudioBackend *pulse = Pulse()) {
        opened.stream = pulse->OpenPlayback(IsDefaultId(id) ? std::string(kDefaultAudioDeviceId) : id);
        opened.clockPaced = pulse->IsClockPaced();
        if (!opened.stream && error) *error = "PulseAudio could not open output " + id;
        return opened;
    }
    if (opened.backend) {
        opened.stream = opened.backend->OpenPlayback(kDefaultAudioDeviceId);
        opened.clockPaced = opened.backend->IsClockPaced();
    }
    if (!opened.stream && error && error->empty()) *error = "cannot open output device " + id;
    return opened;
}

void AudioDevices::SetDeviceChangeCallback(AudioBackend::DeviceChangeCallback callback) {
    if (AudioBackend *pulse = Pulse()) pulse->SetDeviceChangeCallback(std::move(callback));
}

}  // namespace svcpp::core::voice
