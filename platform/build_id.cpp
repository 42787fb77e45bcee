#include "platform/build_id.hpp"

#include <elf.h>
#include <link.h>

#include <cstring>

namespace omnilink::platform {

namespace {

// Reads the build ID from the main program's PT_NOTE segments, which dl_iterate_phdr lists first
// (a static executable too: glibc keeps its program headers).
int read_build_id(dl_phdr_info* info, std::size_t, void* out) {
  auto& id = *static_cast<std::optional<std::string>*>(out);
  for (ElfW(Half) k = 0; k < info->dlpi_phnum; ++k) {
    const ElfW(Phdr)& segment = info->dlpi_phdr[k];
    if (segment.p_type != PT_NOTE) continue;
    const auto* at = reinterpret_cast<const unsigned char*>(info->dlpi_addr + segment.p_vaddr);
    const unsigned char* end = at + segment.p_memsz;
    // Each note: a header, its name and its description, each padded to 4 bytes.
    const auto padded = [](std::size_t n) { return (n + 3) & ~std::size_t{3}; };
    while (at + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) note;
      std::memcpy(&note, at, sizeof note);
      const unsigned char* name = at + sizeof note;
      const unsigned char* description = name + padded(note.n_namesz);
      if (description + padded(note.n_descsz) > end) break;
      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0 && note.n_descsz > 0) {
        static const char kHex[] = "0123456789abcdef";
        std::string hex;
        for (ElfW(Word) b = 0; b < note.n_descsz; ++b) {
          hex += kHex[description[b] >> 4];
          hex += kHex[description[b] & 15];
        }
        id = hex;
        return 1;
      }
      at = description + padded(note.n_descsz);
    }
  }
  return 1;  // only the first object, the executable itself
}

}  // namespace

const std::optional<std::string>& executable_build_id() {
  static const std::optional<std::string> id = [] {
    std::optional<std::string> found;
    dl_iterate_phdr(read_build_id, &found);
    return found;
  }();
  return id;
}

}  // namespace omnilink::platform
