// expect: wrong_answer
import("qjs:os").then((os) => {
    console.log(JSON.stringify(os.readdir("/")));
});
