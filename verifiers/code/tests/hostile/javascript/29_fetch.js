// expect: runtime_error
fetch("http://example.com");
