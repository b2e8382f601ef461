// expect: runtime_error
require("net").connect(80, "example.com");
