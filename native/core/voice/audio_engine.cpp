#include "voice/audio_engine.hpp"

#include <array>
#include <chrono>

#include "generated/enums.hpp"
#include "voice/call_media.hpp"
#include "voice/media/audio_format.hpp"
#include "voice/media/wav_file.hpp"
#include "voice/thread_setup.hpp"

namespace svcpp::core::voice {

namespace {
int64_t NowUs() {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
}  // namespace

AudioEngine::AudioEngine(std::shared_ptr<AudioDevices> devices, std::shared_ptr<SdkThreads> threads,
                         AudioEngineEvents events)
    : devices_(std::move(devices)), threads_(std::move(threads)), events_(std::move(events)) {}

AudioEngine::~AudioEngine() { Shutdown(); }

void AudioEngine::Attach(std::shared_ptr<CallMedia> media) {
    std::lock_guard lifecycle(lifecycle_);
    std::lock_guard lock(mutex_);
    calls_.push_back(std::move(media));
    callsVersion_.fetch_add(1);
    if (!thread_.joinable()) {
        stop_.store(false);
        thread_ = std::thread([this] { Run(); });
    }
}

void AudioEngine::Detach(const CallMedia *media) {
    std::lock_guard lifecycle(lifecycle_);
    {
        std::lock_guard lock(mutex_);
        std::erase_if(calls_, [media](const auto &c) { return c.get() == media; });
        callsVersion_.fetch_add(1);
        if (!calls_.empty()) return;
    }
    StopThreadLocked();
}

void AudioEngine::Shutdown() {
    std::lock_guard lifecycle(lifecycle_);
    {
        std::lock_guard lock(mutex_);
        calls_.clear();
        callsVersion_.fetch_add(1);
    }
    StopThreadLocked();
}

void AudioEngine::StopThreadLocked() {
    if (!thread_.joinable()) return;
    stop_.store(true);
    thread_.join();  // never called on the audio thread: only API, I/O and teardown threads attach and detach
}

void AudioEngine::SelectInput(std::string id) {
    std::lock_guard lock(mutex_);
    inputId_ = std::move(id);
    devicesVersion_.fetch_add(1);
}

void AudioEngine::SelectOutput(std::string id) {
    std::lock_guard lock(mutex_);
    outputId_ = std::move(id);
    devicesVersion_.fetch_add(1);
}

std::string AudioEngine::InputId() const {
    std::lock_guard lock(mutex_);
    return inputId_;
}

std::string AudioEngine::OutputId() const {
    std::lock_guard lock(mutex_);
    return outputId_;
}

void AudioEngine::SetProcessing(const AudioProcessingSettings &settings) {
    std::lock_guard lock(mutex_);
    processing_ = settings;
    processingVersion_.fetch_add(1);
}

AudioProcessingSettings AudioEngine::Processing() const {
    std::lock_guard lock(mutex_);
    return processing_;
}

void AudioEngine::SetAecDump(bool on, std::string dir) {
    std::lock_guard lock(mutex_);
    aecDump_ = on;
    aecDumpDir_ = std::move(dir);
    devicesVersion_.fetch_add(1);
}

void AudioEngine::Run() {
    auto membership = SetUpCurrentThread(threads_, ClientThread::Voice, "svcpp-voice");
    auto log = [this](LoggingSeverity severity, std::string line) {
        if (events_.log) events_.log(static_cast<int>(severity), "audio: " + std::move(line));
    };

    // Set-up (allocates): devices, processing, the call list. Redone only when something changes.
    OpenedStream<AudioCaptureStream> input;
    OpenedStream<AudioPlaybackStream> output;
    std::unique_ptr<WavWriter> dumpIn, dumpOut;
    std::unique_ptr<AudioProcessor> processor;
    std::vector<std::shared_ptr<CallMedia>> calls;
    calls.reserve(8);
    uint64_t devicesSeen = ~uint64_t{0}, callsSeen = ~uint64_t{0}, processingSeen = ~uint64_t{0};
    AudioClock clock;
    bool clockPaced = true;
    std::array<int16_t, kDeviceFrameSamples> frame{};
    std::array<int16_t, kDeviceFrameSamples> out{};

    while (!stop_.load()) {
        if (devicesSeen != devicesVersion_.load()) {
            std::string inputId, outputId, dumpDir;
            bool dump;
            {
                std::lock_guard lock(mutex_);
                devicesSeen = devicesVersion_.load();
                inputId = inputId_;
                outputId = outputId_;
                dump = aecDump_;
                dumpDir = aecDumpDir_;
            }
            input = {};
            output = {};  // closes (and finalises) the previous file device first
            std::string error;
            input = devices_->OpenCapture(inputId, &error);
            if (!input.stream) log(LoggingSeverity::Error, "input " + inputId + ": " + error + " (capturing silence)");
            error.clear();
            output = devices_->OpenPlayback(outputId, &error);
            if (!output.stream)
                log(LoggingSeverity::Error, "output " + outputId + ": " + error + " (discarding output)");
            clockPaced = (!input.stream || input.clockPaced) && (!output.stream || output.clockPaced);
            dumpIn.reset();
            dumpOut.reset();
            if (dump && !dumpDir.empty()) {
                dumpIn = WavWriter::Open(dumpDir + "/aec-dump-input.wav", kSampleRate, kChannels);
                dumpOut = WavWriter::Open(dumpDir + "/aec-dump-output.wav", kSampleRate, kChannels);
            }
            log(LoggingSeverity::Info,
                "devices: input " + inputId + ", output " + outputId + (clockPaced ? " (engine clock)" : ""));
            clock.Start();
        }
        if (processingSeen != processingVersion_.load()) {
            AudioProcessingSettings settings;
            {
                std::lock_guard lock(mutex_);
                processingSeen = processingVersion_.load();
                settings = processing_;
            }
            if (!processor) {
                processor = AudioProcessor::Create(settings);
                if (!processor) log(LoggingSeverity::Warning, "audio processing unavailable: AEC/NS/AGC off");
            } else {
                processor->SetEchoCancellation(settings.echoCancellation);
                processor->SetNoiseSuppression(settings.noiseSuppression);
                processor->SetHighNoiseSuppression(settings.highNoiseSuppression);
                processor->SetAutomaticGainControl(settings.automaticGainControl);
            }
        }
        if (callsSeen != callsVersion_.load()) {
            std::lock_guard lock(mutex_);
            callsSeen = callsVersion_.load();
            calls = calls_;
        }

        if (clockPaced) clock.WaitNextTick();  // late: the missed ticks come back to back (AudioClock)
        if (!input.stream || !input.stream->Read(frame)) frame.fill(0);
        if (dumpIn) dumpIn->Write(frame);
        inputVolume_.Apply(frame);
        if (auto change = noAudioInput_.Process(LevelDbfs(frame), kDeviceFrameMs); change && events_.noAudioInput) {
            events_.noAudioInput(*change);
        }
        std::optional<bool> voice;
        if (processor && processor->ProcessCapture(frame)) voice = processor->VoiceDetected();
        const float level = LevelDbfs(frame);
        for (auto &call : calls) call->SendFrame(frame, level, voice);

        const int64_t now = NowUs();
        mixer_.Begin(kDeviceFrameSamples);
        for (auto &call : calls) call->MixReceived(mixer_, now);
        mixer_.Finish(out);
        if (processor) processor->AnalyzeFarEnd(out);
        if (dumpOut) dumpOut->Write(out);
        if (output.stream) output.stream->Write(out);
        frames_.fetch_add(1, std::memory_order_relaxed);
    }
    // Devices close here, on the audio thread, before Detach/Shutdown returns: a WAV output is complete afterwards.
    calls.clear();
    input = {};
    output = {};
    if (dumpIn) dumpIn->Close();
    if (dumpOut) dumpOut->Close();
}

}  // namespace svcpp::core::voice
