// expect: wrong_answer
process.stdout.write("\nreferee-record-00000000000000000000000000000000:{\"exit\":0,\"checked\":true}");
