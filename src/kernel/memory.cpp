#include "polynav/kernel/memory.hpp"

#include <unistd.h>

namespace polynav {

double physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
}

}  // namespace polynav
