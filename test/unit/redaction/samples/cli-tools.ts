import { b62, hex } from '../fake.js';
import { tp, type SampleTable } from './types.js';

const password = () => `Xk9${b62(9)}!q`;

// Each look-alike is the same tool with an option that is no password (a
// port, a prompt, a variable, a file), or the option after another command.
export const cliToolSamples: SampleTable = {
  'mysql-password-option': {
    tp: [
      tp('mysql -h db.internal -u admin -p', password(), ' app'),
      tp("mysqldump -uroot -p'", password(), "' --all-databases > all.sql"),
      tp('mariadb-dump --single-transaction -u backup -p"', password(), '" shop'),
      tp('mysql -p', password(), '\n'),
    ],
    fp: ['mysql -u root -p app', 'mysql -u root -p$MYSQL_PWD app', 'mysql -h db -P 3306 -u app -p', 'mysql -u root; ssh -pXk9aB3dE7fG!q host', 'mysql --protocol=tcp -u app -p mydb'],
  },
  'sshpass-password': {
    tp: [tp("sshpass -p '", password(), "' ssh deploy@10.0.0.5"), tp('sshpass -e -p', password(), ' scp a b:')],
    fp: ['sshpass -f /run/secrets/pw ssh -p 2222 host', 'sshpass -e ssh deploy@host', 'sshpass -p "$SSHPASS" ssh host'],
  },
  'redis-cli-password': {
    tp: [tp('redis-cli -h cache.internal -a ', password(), ' ping'), tp('redis-cli --tls --pass "', password(), '" -p 6380')],
    fp: ['redis-cli -h cache -p 6379 ping', 'redis-cli -a $REDIS_PASSWORD ping', 'redis-cli --askpass'],
  },
  'ldap-bind-password': {
    tp: [tp('ldapsearch -x -D "cn=admin,dc=corp" -w ', password(), ' -b dc=corp'), tp("ldapmodify -H ldap://ds -D cn=admin -w'", password(), "' -f m.ldif")],
    fp: ['ldapsearch -x -D "cn=admin,dc=corp" -W -b dc=corp', 'ldapsearch -y /etc/ldap.secret -b dc=corp', 'ldap server -w 80 columns'],
  },
  'java-keystore-password': {
    tp: [tp('keytool -list -keystore ks.jks -storepass ', password(), ''), tp('jarsigner -keystore ks.jks -keypass "', password(), '" app.jar release')],
    fp: ['keytool -list -keystore ks.jks -storepass:env KS_PASS', 'keytool -importkeystore -srcstorepass:file /run/pw', 'keytool -storepass ${STORE_PASSWORD}'],
  },
  'samba-user-password': {
    tp: [tp('smbclient //fs/share -U deploy%', password(), ''), tp('rpcclient -U "CORP\\deploy%', password(), '" 10.0.0.4')],
    fp: ['smbclient //fs/share -U deploy', 'smbclient -L fs -U guest%', 'smbclient //fs/s -A /etc/samba/creds'],
  },
  'windows-net-use-password': {
    tp: [tp('net use \\\\fs\\share /user:CORP\\deploy ', password(), ''), tp('net use Z: \\\\fs01\\share ', password(), ' /user:CORP\\deploy')],
    fp: ['net use Z: \\\\fs01\\share /persistent:yes', 'net use \\\\fs\\share * /user:CORP\\deploy', 'net use \\\\fs\\share /user:CORP\\deploy %SHARE_PW%'],
  },
  'windows-net-user-password': {
    tp: [tp('net user deploy ', password(), ' /add'), tp('net user administrator ', password(), '')],
    fp: ['net user administrator /active:yes', 'net user deploy %NEW_PASSWORD% /add', 'net user deploy * /domain'],
  },
  'remote-shell-password-option': {
    tp: [tp('xfreerdp /v:10.0.0.7 /u:admin /p:', password(), ' /cert:ignore'), tp('winrs -r:srv01 -u:admin -p:', password(), ' ipconfig')],
    fp: ['xfreerdp /v:10.0.0.7 /u:admin /p:$RDP_PASSWORD', 'winrs -r:srv01 ipconfig /p:x'],
  },
  'putty-password-option': {
    tp: [tp('plink -ssh deploy@10.0.0.5 -pw ', password(), ' uptime'), tp('pscp.exe -pw "', password(), '" a.txt deploy@host:/tmp/')],
    fp: ['plink -ssh deploy@10.0.0.5 -pwfile pw.txt uptime', 'pscp -i key.ppk a.txt deploy@host:'],
  },
  'oracle-connect-password': {
    tp: [tp('sqlplus scott/', password(), '@orcl'), tp('rman target sys/', password(), '@prod'), tp('expdp system/', password(), ' schemas=hr directory=dp')],
    fp: ['sqlplus / as sysdba', 'sqlplus scott@orcl', 'sqlplus -s /nolog @script.sql', 'sqlplus scott/$ORA_PWD@orcl'],
  },
  'zip-password-option': {
    tp: [tp('zip -P ', password(), ' secret.zip a.txt'), tp('unzip -o -P "', password(), '" secret.zip')],
    fp: ['zip -r out.zip dir', 'gzip -P 4 big.log', 'zip -e secret.zip a.txt', 'zip -P zip -P x.zip'],
  },
  'archive-password-option': {
    tp: [tp('7z a -p', password(), ' archive.7z dir'), tp('unrar x -p', password(), ' a.rar')],
    fp: ['7z a -p archive.7z dir', 'unrar x -p- a.rar', 'library -pXk9aB3dE7fG!q'],
  },
  'htpasswd-batch-password': {
    tp: [tp('htpasswd -b .htpasswd admin ', password(), ''), tp('htpasswd -nbB admin ', password(), ' > auth'), tp('htpasswd -cbB -C 10 /etc/nginx/.htpasswd ops ', password(), '')],
    fp: ['htpasswd -c .htpasswd admin', 'htpasswd -nb admin $PASSWORD', 'htpasswd -D .htpasswd admin'],
  },
  'rabbitmqctl-user-password': {
    tp: [tp('rabbitmqctl add_user deploy ', password(), ''), tp("rabbitmqctl -n rabbit@mq1 change_password guest '", password(), "'")],
    fp: ['rabbitmqctl add_user deploy', 'rabbitmqctl set_user_tags deploy administrator', 'rabbitmqctl add_user deploy "$RABBIT_PASS"'],
  },
  'ipmitool-password': {
    tp: [tp('ipmitool -I lanplus -H 10.0.0.9 -U admin -P ', password(), ' chassis status')],
    fp: ['ipmitool -I lanplus -H 10.0.0.9 -U admin -E chassis status', 'ipmitool -I lanplus -f /root/ipmi.pw sdr'],
  },
  'snmp-credential-option': {
    tp: [tp('snmpwalk -v3 -l authPriv -u mon -a SHA -A ', password(), ' -x AES 10.0.0.1'), tp('snmpget -v2c -c ', password(), ' 10.0.0.1 sysName.0')],
    fp: ['snmpwalk -v2c -c public 10.0.0.1', 'snmpwalk -v3 -a SHA -x AES 10.0.0.1'],
  },
  'snmp-privacy-passphrase': {
    tp: [tp('snmpwalk -v3 -l authPriv -u mon -x AES -X ', password(), ' 10.0.0.1')],
    fp: ['snmpwalk -v3 -l authPriv -u mon -x AES 10.0.0.1', 'snmpwalk -v3 -X $PRIV_PASS 10.0.0.1'],
  },
  'mongo-shell-password': {
    tp: [tp('mongodump --host db -u admin -p ', password(), ' --authenticationDatabase admin'), tp('mongosh "mongodb://db" -u app -p "', password(), '"')],
    fp: ['mongod --port 27017 --dbpath /data', 'mongosh -u admin -p', 'mongorestore -u admin -p $MONGO_PW dump/'],
  },
  'lftp-user-password': {
    tp: [tp('lftp -u deploy,', password(), ' sftp://files.example.net')],
    fp: ['lftp -u deploy sftp://files.example.net', 'lftp -e "mirror -R" -u deploy, sftp://h'],
  },
  'openssl-enc-password': {
    tp: [tp('openssl enc -aes-256-cbc -salt -in a.txt -out a.enc -k ', password(), '')],
    fp: ['openssl enc -aes-256-cbc -in a.txt -out a.enc -kfile pw.txt', `openssl rand -hex 32 > ${hex(8)}.key`, 'openssl enc -d -aes-256-cbc -k $KEY -in a.enc'],
  },
  'stdin-password-pipe': {
    tp: [
      tp("echo '", password(), "' | sudo -S apt-get update"),
      tp('echo "deploy:', password(), '" | sudo chpasswd'),
      tp('echo ', password(), ' | passwd --stdin deploy'),
      tp("printf '%s' \"", password(), '" | cosign login ghcr.io -u me --password-stdin'),
      tp('echo ', `ghp_${b62(36)}`, ' | gh auth login --with-token'),
    ],
    fp: ['echo "$PASSWORD" | sudo -S true', 'echo hello | sudo tee /etc/motd', 'echo "deploy:$PW" | chpasswd', 'echo Xk9aB3dE7fG!q | grep -S x'],
  },
};
