#include "engine/tensor/limits.h"

#include <cstdio>

namespace gl {

std::string humanBytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int i = 0;
  while (bytes >= 1024 && i < 5) bytes /= 1024, ++i;
  char text[64];
  std::snprintf(text, sizeof text, "%.1f %s", bytes, units[i]);
  return text;
}

}  // namespace gl
