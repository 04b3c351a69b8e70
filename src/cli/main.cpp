#include <iostream>

int main() {
  std::cerr << "polynav: no subcommands yet\n";
  return 2;
}
