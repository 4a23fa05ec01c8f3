#include "voice/e2ee/key_ratchet.hpp"

#include "mls/key_schedule.hpp"

namespace svcpp::core::voice::e2ee {

mls::Bytes SenderBaseSecret(mls::ByteView exporterSecret, uint64_t userId) {
    mls::Bytes context(8);
    for (std::size_t i = 0; i < 8; ++i) context[i] = static_cast<uint8_t>(userId >> (8 * i));
    return mls::MlsExporter(exporterSecret, mls::ToBytes(kSenderKeyExporterLabel), context, 16);
}

}  // namespace svcpp::core::voice::e2ee
