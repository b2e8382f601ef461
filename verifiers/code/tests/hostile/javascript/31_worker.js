// expect: runtime_error
import("qjs:os").then((os) => {
    new os.Worker("./worker.js");
});
