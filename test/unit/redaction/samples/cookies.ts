import { b62, hex } from '../fake.js';
import { tp, type SampleTable } from './types.js';

export const cookieSamples: SampleTable = {
  'http-session-cookie': {
    tp: [
      tp('Cookie: sessionid=', `${b62(30)}7q`, '; csrftoken=abc'),
      tp('Set-Cookie: JSESSIONID=', hex(32).toUpperCase(), '; Path=/; HttpOnly'),
      tp('Cookie: _ga=GA1.2.3; PHPSESSID=', `${hex(26)}`, '; theme=dark'),
      tp('curl -s -b "laravel_session=', `${b62(40)}9x`, '" https://app.example.net/api'),
      tp("curl --cookie 'connect.sid=", `s%3A${b62(32)}.${b62(20)}4`, "' https://app.example.net/"),
    ],
    fp: [
      'Set-Cookie: XSRF-TOKEN=Zk3mQ9vL2xR7tB5nW8pH4cJ6fD1gS0aY; Path=/',
      'document.cookie = "sessionid=" + sid;',
      'Cookie: sessionid=deleted; expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'Cookie: theme=dark; lang=en-US; _ga=GA1.2.1234567890.1700000000',
      'the cookie sessionid=abcdefghijklmnopqrstuvwx is set',
      'Cookie: sessionid=${SESSION_ID}',
    ],
  },
};
