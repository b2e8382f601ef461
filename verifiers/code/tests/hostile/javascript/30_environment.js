// expect: wrong_answer
import("qjs:std").then((std) => {
    console.log(JSON.stringify([process.env, std.getenviron()]));
});
