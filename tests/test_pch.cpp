// The translation unit that carries the test programs' precompiled header
// (tests/CMakeLists.txt): it compiles nothing of its own.
