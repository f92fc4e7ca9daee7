#include "host/app/cli.hpp"

int main(int argc, char** argv) { return gs::main_cli(argc, argv); }
